/**
 * Types of install.js, a plain Node script because it also runs as a CLI (`npm run e2e:install`).
 */
/** E2E_N8N_VERSION: '' for the main runtime (the newest n8n of the claimed range). */
export const N8N_VERSION: string;
export const RUNTIME_DIR: string;
export const NODE_MODULES: string;
export const NODE24_BIN: string;
export const NODE24_DIR: string;
export const CHROMIUM: string;
export function node24Env(base?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export function markerPath(): string;
