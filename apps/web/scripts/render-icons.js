// Renders the PWA icons from public/icons/logo.svg. Run from the repository root:
//   node apps/web/scripts/render-icons.js
// sharp comes from the API workspace; the PNGs are committed, so builds do not need it.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(new URL('../../api/package.json', import.meta.url));
const sharp = require('sharp');
const dir = fileURLToPath(new URL('../public/icons/', import.meta.url));
const logo = await readFile(`${dir}logo.svg`);

for (const size of [192, 512]) {
  await sharp(logo, { density: 384 }).resize(size, size).png().toFile(`${dir}icon-${size}.png`);
}
// Maskable icons keep the mark inside the central safe zone (80 %) on a full-bleed background.
for (const size of [192, 512]) {
  const inner = Math.round(size * 0.62);
  const mark = await sharp(logo, { density: 384 }).resize(inner, inner).png().toBuffer();
  await sharp({ create: { width: size, height: size, channels: 4, background: '#17C7A4' } })
    .composite([{ input: mark, gravity: 'center' }])
    .png()
    .toFile(`${dir}maskable-${size}.png`);
}
await sharp(logo, { density: 384 }).resize(180, 180).flatten({ background: '#17C7A4' }).png().toFile(`${dir}apple-touch-icon.png`);
console.log('icons written to', dir);
