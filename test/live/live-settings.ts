/** The deployment settings of a test's live files: a site at the root, no auth, one origin. */
import type { LiveManifestSettings } from '../../live/live-files.js';

export const LIVE_SETTINGS: LiveManifestSettings = {
  generated: '2026-11-27T12:00:00.000Z',
  base_path: '',
  site_url: 'https://juice.example',
  allowed_origins: [],
  requests_per_minute: 60,
  policy_headers: [],
  server: { name: 'juice-catalog', title: 'Juice catalog', version: '1' },
  instructions: 'Test catalog.',
};
