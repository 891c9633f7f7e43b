/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/**
 * The environment n8n-core reads, per test file: its InstanceSettings (built by every node context)
 * reads or creates `$N8N_USER_FOLDER/.n8n/config`, so each file gets a throw-away folder instead of
 * the user's home; its Logger prints to the console unless silenced (tests assert on results).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { settings } from '../../nodes/GstCompliance/settings';

const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'gst-unit-n8n-'));
process.env.N8N_USER_FOLDER = userFolder;
process.env.N8N_LOG_LEVEL = 'silent';

afterAll(() => fs.rmSync(userFolder, { recursive: true, force: true }));

// A delivery whose execution the test runs later is answered once the trigger's probe of its own
// URL (the harness's) shows its acceptance saved: at once here; the bound's own tests set theirs.
settings.acceptanceProbeAfterMs = 1;
