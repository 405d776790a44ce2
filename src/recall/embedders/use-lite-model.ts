/**
 * USE Lite's model id, on its own so that what names the model (recall's settings, which the
 * prompt hook reads) does not bring the embedder's code, and the package it imports, into a hook.
 */
export const USE_LITE_MODEL = 'use-lite-en-0.2.0';
