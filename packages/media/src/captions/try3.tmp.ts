import * as hb from 'harfbuzzjs';
import { readFileSync } from 'node:fs';
import { captionFontFiles } from './index';
for (const { family, file } of captionFontFiles()) {
  const face = new hb.Face(new hb.Blob(readFileSync(file)), 0);
  const os2 = face.referenceTable('OS/2')!; const dv = new DataView(os2.buffer, os2.byteOffset, os2.byteLength);
  console.log(family, ((dv.getInt16(74) + dv.getInt16(76)) / face.upem).toFixed(3));
}
