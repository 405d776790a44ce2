#!/usr/bin/env node
// A team of N machines syncing through one JetStream stream, on paper: stream size per month,
// a new member's catch-up, and what each machine's forwarder and importer cost. The inputs are
// flags; their defaults are `npm run bench -- --only sync` figures (docs/team-sync.md says which
// run) and the assumptions named below. Prints a Markdown table.
//
//   node scripts/simulate-team.mjs [--machines 50] [--catchup-per-s 1200] ...
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    machines: { type: 'string', default: '50' },
    // Assumption: one person's machines share one subject; two machines a person.
    'machines-per-person': { type: 'string', default: '2' },
    // Assumption: sessions a working day on the machine where the person works that day, and
    // events a session (the bench's synthetic sessions: 100).
    'sessions-per-day': { type: 'string', default: '8' },
    'events-per-session': { type: 'string', default: '100' },
    'working-days': { type: 'string', default: '21' },
    'working-hours': { type: 'string', default: '8' },
    // Measured (bench sync: the synthetic backlog's mean JSON size).
    'bytes-per-event': { type: 'string', default: '255' },
    // One TranscriptCaptured a session: an excerpt of at most 32,000 characters (EXCERPT_MAX).
    // Assumption: half of that on average (short sessions keep less).
    'excerpt-bytes': { type: 'string', default: '16000' },
    // JetStream's file store per message beyond the body: subject, Nats-Msg-Id and Engram-Seq
    // headers, record header and hash (≈ 22 B + subject + headers).
    'overhead-bytes': { type: 'string', default: '110' },
    // Team scope: memory events (proposed, reinforced, edited, ...) a person makes a day, and their size.
    'memory-events-per-day': { type: 'string', default: '10' },
    'memory-event-bytes': { type: 'string', default: '800' },
    // Measured (bench sync, a machine at load 13–21): events/s a worker folds from the stream while catching up.
    'catchup-per-s': { type: 'string', default: '250' },
    // Measured (bench sync): an idle connected worker's messages to the server a second, and the CPU ms a
    // second it uses beyond a worker without sync (100 vs 60 ms over 10 s).
    'idle-msgs-per-s': { type: 'string', default: '0.5' },
    'idle-cpu-ms-per-s': { type: 'string', default: '4' },
    replicas: { type: 'string', default: '3' },
    'retention-months': { type: 'string', default: '12' },
  },
});
const n = (key) => {
  const value = Number(values[key]);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${key} must be a number, not ${values[key]}`);
  return value;
};

const machines = n('machines');
const people = machines / n('machines-per-person');
const sessionsDay = n('sessions-per-day');
const eventsDay = sessionsDay * n('events-per-session');
const days = n('working-days');
const overhead = n('overhead-bytes');
// Each person works on one machine at a time: a day's events are one person's, not one machine's.
const personalBytesDay = eventsDay * (n('bytes-per-event') + overhead) + sessionsDay * n('excerpt-bytes');
const personalMonth = people * personalBytesDay * days;
const teamEventsDay = n('memory-events-per-day');
const teamMonth = people * teamEventsDay * (n('memory-event-bytes') + overhead) * days;
const retention = n('retention-months');
const catchUp = n('catchup-per-s');
const hours = n('working-hours');

const size = (bytes) => (bytes >= 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(0)} kB`);
const time = (s) => (s >= 3600 ? `${(s / 3600).toFixed(1)} h` : s >= 60 ? `${(s / 60).toFixed(1)} min` : `${s.toFixed(1)} s`);
const rate = (x) => (x >= 10 ? x.toFixed(0) : x.toFixed(2));

// A new machine of one person takes in that person's subject (the importer filters by subject);
// a new member of a team takes in the project's memory events from everyone.
const personalBacklog = eventsDay * days * retention;
const teamBacklog = people * teamEventsDay * days * retention;
// While working: one person's events spread over the working hours; every machine of that person
// takes them in (its own come back and are skipped by id). Idle: the importer's pull every 2 s.
const publishPerS = eventsDay / (hours * 3600);
const rows = [
  ['people (machines)', `${people} (${machines})`],
  ['events a person makes a working day', `${eventsDay.toLocaleString('en')} (${sessionsDay} sessions × ${n('events-per-session')}) + ${sessionsDay} transcript excerpts`],
  ['personal scope: stream growth a month', `${size(personalMonth)} (× ${n('replicas')} replicas on disk: ${size(personalMonth * n('replicas'))}); ${(people * eventsDay * days).toLocaleString('en')} messages`],
  ['personal scope: kept a year', size(personalMonth * 12)],
  ['team scope: stream growth a month', `${size(teamMonth)}; ${(people * teamEventsDay * days).toLocaleString('en')} messages`],
  ['new machine (personal): backlog, catch-up', `${personalBacklog.toLocaleString('en')} events over ${retention} months: ${time(personalBacklog / catchUp)} at ${catchUp.toLocaleString('en')} events/s`],
  ['new member (team): backlog, catch-up', `${teamBacklog.toLocaleString('en')} memory events over ${retention} months: ${time(teamBacklog / catchUp)}`],
  ['each machine while its person works', `${rate(publishPerS)} publishes/s on average (acked, pipelined), as many messages in from the stream; one connection`],
  ['each machine idle (worker running)', `${n('idle-msgs-per-s')} messages/s to the server (the importer's pull), ${n('idle-cpu-ms-per-s')} ms CPU/s (${(n('idle-cpu-ms-per-s') / 10).toFixed(2)} % of a core); one connection`],
  ['the server', `${machines} connections; idle ${rate(machines * n('idle-msgs-per-s'))} pulls/s; working hours ${rate(people * publishPerS)} publishes/s and ${rate(people * publishPerS * n('machines-per-person'))} deliveries/s (personal), team scope ${rate((people * teamEventsDay * machines) / (hours * 3600))} deliveries/s`],
];
console.log('| | |\n|---|---|');
for (const [what, value] of rows) console.log(`| ${what} | ${value} |`);
