/**
 * Rows of floats held in WebAssembly memory, and the dot product of a query with every row of
 * two projects in one pass of 128-bit SIMD (four floats a step, four sums at once): the vector
 * mirror's scan (vector-mirror.ts). Measured on this machine over 10,000 rows of 512 floats, the
 * scan in JavaScript took ≈ 5–6 ms a query, most of what a ranking costs after the query's
 * embedding. The sums are of 32-bit floats, so a score is the exact dot product to within
 * `scanError`; the mirror rescores the rows near its cut exactly.
 *
 * The module is written here as its bytes (no toolchain in the package); its text:
 *
 *   (func (export "scan") (param $q $m $proj $rows $d $out $own $global i32)
 *     rowBytes = d * 4
 *     for i in 0 ..< rows:
 *       out[i] = proj[i] == own || proj[i] == global
 *         ? sum of lanes((Σ q[k..k+4] * m[k..k+4] over k ≡ 0, 4, 8, 12 mod 16, four sums))
 *         : -Infinity
 *       m += rowBytes)
 */
const I32 = 0x7f;
const V128 = 0x7b;
const F32 = 0x7d;
const get = (local: number) => [0x20, local];
const set = (local: number) => [0x21, local];
const SIMD = 0xfd;
const v128Load = (offset: number) => [SIMD, 0x00, 2, offset];
const F32X4_ADD = [SIMD, 0xe4, 0x01];
const F32X4_MUL = [SIMD, 0xe6, 0x01];
const lane = (n: number) => [SIMD, 0x1f, n];
const [Q, M, PROJ, ROWS, D, OUT, OWN, GLOBAL, I, K, ROW_BYTES, P, ACC] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const I32_ADD = 0x6a;
const I32_SHL = 0x74;
const I32_EQ = 0x46;
const I32_OR = 0x72;
const I32_GE_U = 0x4f;
const times4 = (offset: number) => [...get(offset), 0x41, 2, I32_SHL];

const body = [
  ...get(D), 0x41, 2, I32_SHL, ...set(ROW_BYTES),
  0x02, 0x40, 0x03, 0x40, // block, loop over the rows
  ...get(I), ...get(ROWS), I32_GE_U, 0x0d, 1,
  ...get(PROJ), ...times4(I), I32_ADD, 0x28, 2, 0, ...set(P),
  ...get(OUT), ...times4(I), I32_ADD, // where the score goes
  ...get(P), ...get(OWN), I32_EQ, ...get(P), ...get(GLOBAL), I32_EQ, I32_OR,
  0x04, F32, // if: the row is searched
  SIMD, 0x0c, ...new Array<number>(16).fill(0), ...set(ACC), ...get(ACC), ...set(ACC + 1), ...get(ACC), ...set(ACC + 2), ...get(ACC), ...set(ACC + 3),
  0x41, 0, ...set(K),
  0x02, 0x40, 0x03, 0x40, // block, loop over the row's floats, sixteen a step
  ...get(K), ...get(ROW_BYTES), I32_GE_U, 0x0d, 1,
  ...[0, 1, 2, 3].flatMap((j) => [...get(ACC + j), ...get(Q), ...get(K), I32_ADD, ...v128Load(16 * j), ...get(M), ...get(K), I32_ADD, ...v128Load(16 * j), ...F32X4_MUL, ...F32X4_ADD, ...set(ACC + j)]),
  ...get(K), 0x41, 0xc0, 0x00, I32_ADD, ...set(K), // k += 64 (bytes)
  0x0c, 0, 0x0b, 0x0b,
  ...get(ACC), ...get(ACC + 1), ...F32X4_ADD, ...get(ACC + 2), ...get(ACC + 3), ...F32X4_ADD, ...F32X4_ADD, 0x22, ACC, // local.tee
  ...lane(0), ...get(ACC), ...lane(1), 0x92, ...get(ACC), ...lane(2), 0x92, ...get(ACC), ...lane(3), 0x92,
  0x05, 0x43, 0x00, 0x00, 0x80, 0xff, 0x0b, // else -Infinity
  0x38, 2, 0, // f32.store
  ...get(M), ...get(ROW_BYTES), I32_ADD, ...set(M),
  ...get(I), 0x41, 1, I32_ADD, ...set(I),
  0x0c, 0, 0x0b, 0x0b,
  0x0b,
];
const locals = [2, 4, I32, 4, V128];
const code = [...locals, ...body];
const section = (id: number, bytes: number[]) => [id, ...leb(bytes.length), ...bytes];
const BYTES = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  ...section(1, [1, 0x60, 8, ...new Array<number>(8).fill(I32), 0]),
  ...section(2, [1, 3, ...ascii('env'), 6, ...ascii('memory'), 0x02, 0x00, 1]),
  ...section(3, [1, 0]),
  ...section(7, [1, 4, ...ascii('scan'), 0x00, 0]),
  ...section(10, [1, ...leb(code.length), ...code]),
]);

function leb(n: number): number[] {
  const out: number[] = [];
  do {
    const byte = n & 0x7f;
    n >>>= 7;
    out.push(n > 0 ? byte | 0x80 : byte);
  } while (n > 0);
  return out;
}

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}

/** The little of WebAssembly used here (the project's TypeScript libraries do not declare it). */
interface Wasm {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (options: { initial: number }) => { buffer: ArrayBuffer };
}
const wasm = (globalThis as unknown as { WebAssembly?: Wasm }).WebAssembly;

// A constant made on first use (compiling costs a process that never searches vectors, a hook's
// or the CLI's, for nothing): set once, never changed, holding no data of any caller's.
let compiled: object | null | undefined;

/** The module, or null where there is no WebAssembly or it has no SIMD (the mirror then scans in JavaScript). */
function module(): object | null {
  if (compiled === undefined) compiled = wasm?.validate(BYTES) ? new wasm.Module(BYTES) : null;
  return compiled;
}

type ScanExport = (q: number, m: number, proj: number, rows: number, d: number, out: number, own: number, global: number) => void;

const align = (bytes: number) => Math.ceil(bytes / 16) * 16;

/**
 * Room for `capacity` rows of `dimensions` floats and their project codes, in a WebAssembly
 * memory of its own (a larger one is made, and the rows copied, when they outgrow it).
 */
export class FloatRows {
  readonly capacity: number;
  /** Row i is matrix[i * dimensions, (i + 1) * dimensions). */
  readonly matrix: Float32Array;
  readonly projects: Int32Array;
  readonly #query: Float32Array;
  readonly #scores: Float32Array;
  readonly #scan: ScanExport;
  readonly #offsets: { projects: number; scores: number; matrix: number };
  readonly #dimensions: number;

  /** Whether rows of this width can be held here: SIMD present, and the width a multiple of 16. */
  static fits(dimensions: number): boolean {
    return dimensions > 0 && dimensions % 16 === 0 && module() !== null;
  }

  constructor(dimensions: number, capacity: number) {
    this.#dimensions = dimensions;
    this.capacity = capacity;
    const projects = align(dimensions * 4);
    const scores = projects + align(capacity * 4);
    const matrix = scores + align(capacity * 4);
    this.#offsets = { projects, scores, matrix };
    const memory = new wasm!.Memory({ initial: Math.ceil((matrix + capacity * dimensions * 4) / 65_536) });
    const instance = new wasm!.Instance(module()!, { env: { memory } });
    this.#scan = instance.exports.scan as ScanExport;
    this.#query = new Float32Array(memory.buffer, 0, dimensions);
    this.projects = new Int32Array(memory.buffer, projects, capacity);
    this.#scores = new Float32Array(memory.buffer, scores, capacity);
    this.matrix = new Float32Array(memory.buffer, matrix, capacity * dimensions);
  }

  /**
   * Each of the first `rows` rows' dot product with `query` (of the rows' width), to within
   * scanError; -Infinity for a row whose project code is neither `own` nor `global`. The array is
   * this object's own, overwritten by the next scan.
   */
  scan(query: Float32Array, rows: number, own: number, global: number): Float32Array {
    this.#query.set(query);
    this.#scan(0, this.#offsets.matrix, this.#offsets.projects, rows, this.#dimensions, this.#offsets.scores, own, global);
    return this.#scores.subarray(0, rows);
  }
}

/**
 * How far a scan's score may be from the dot product summed in doubles, for a query of norm
 * `queryNorm` and rows of norm at most `rowNorm`: each of the 32-bit sums (a product and a
 * float added per step, then the partial sums) rounds by at most 2^-24 of Σ|q·m| ≤ |q||m|, and
 * fewer than `dimensions` + 16 roundings reach any score; counted twice over, for margin.
 */
export function scanError(dimensions: number, queryNorm: number, rowNorm: number): number {
  return (dimensions + 16) * 2 ** -23 * queryNorm * rowNorm;
}
