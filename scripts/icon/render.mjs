// Renders scripts/icon/icon.svg into the extension's toolbar and store icons
// (extension/public/icon/<size>.png, which WXT puts in the manifest) with Debian's Chromium.
// Run after changing the SVG: node scripts/icon/render.mjs
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const svg = readFileSync(fileURLToPath(new URL('icon.svg', import.meta.url)), 'utf8');
const out = (size) =>
  fileURLToPath(new URL(`../../extension/public/icon/${size}.png`, import.meta.url));
const browser = await chromium.launch({
  executablePath: process.env.SWITCHYARD_E2E_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
try {
  for (const size of [16, 32, 48, 128]) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const sized = svg.replace('<svg ', `<svg width="${size}" height="${size}" `);
    await page.setContent(`<body style="margin:0">${sized}</body>`);
    await page.screenshot({ path: out(size), omitBackground: true });
    await page.close();
  }
} finally {
  await browser.close();
}
