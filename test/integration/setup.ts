import { afterAll } from 'vitest';
import { killLeftoverHosts } from './host-harness';

// A test that fails before closing its host must not leave the host (and its servers) running.
afterAll(() => {
  killLeftoverHosts();
});
