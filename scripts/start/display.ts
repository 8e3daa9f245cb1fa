/**
 * Whether a browser window could open here. Linux and the BSDs need an X11 or Wayland display
 * (`DISPLAY` or `WAYLAND_DISPLAY`: an SSH session or a container usually has neither); macOS and
 * Windows always have a desktop for a logged-in user. A wrong "yes" costs little: the launch fails
 * at once, and start.ts falls back to the headless self-check.
 */
export function hasDisplay(
  platform: NodeJS.Platform,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  if (platform === 'darwin' || platform === 'win32') return true;
  return nonEmpty(env['DISPLAY']) || nonEmpty(env['WAYLAND_DISPLAY']);
}

function nonEmpty(value: string | undefined): boolean {
  return value !== undefined && value.trim() !== '';
}
