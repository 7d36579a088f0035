import path from 'node:path';
import { repoRoot } from '../lib/util.mjs';

// SOUNDS_DIR points the tools at another folder (the checker's own tests use a damaged copy).
export const PACK_DIR = process.env.SOUNDS_DIR ? path.resolve(process.env.SOUNDS_DIR) : path.join(repoRoot, 'assets', 'sounds');
export const MANIFEST_COLUMNS = 'filename,duration_sec,lufs,loop,notes';

const csvField = (v) => (/[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));

export function manifestCsv(rows) {
  const lines = rows.map(({ sound, durationSec, lufs }) =>
    [`${sound.name}.mp3`, durationSec.toFixed(3), lufs.toFixed(1), sound.loop ? 'true' : 'false', sound.notes_text].map(csvField).join(','),
  );
  return `${MANIFEST_COLUMNS}\n${lines.join('\n')}\n`;
}

// Minimal CSV reader for the manifest (quoted fields allowed).
export function parseCsv(text) {
  const rows = [];
  for (const line of text.split(/\r?\n/).filter(Boolean)) {
    const fields = [];
    let cur = '';
    let quoted = false;
    for (let i = 0; i < line.length; i += 1) {
      const c = line[i];
      if (quoted && c === '"' && line[i + 1] === '"') {
        cur += '"';
        i += 1;
      } else if (c === '"') quoted = !quoted;
      else if (c === ',' && !quoted) {
        fields.push(cur);
        cur = '';
      } else cur += c;
    }
    fields.push(cur);
    rows.push(fields);
  }
  return rows;
}
