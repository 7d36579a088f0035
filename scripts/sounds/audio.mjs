// ffmpeg/ffprobe helpers for the sound pack: install check, decoding, loudness (EBU R128).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { aptInstall } from '../lib/util.mjs';

export function ensureFfmpeg() {
  const has = (bin) => spawnSync(bin, ['-version'], { stdio: 'ignore' }).status === 0;
  if (has('ffmpeg') && has('ffprobe')) return;
  const hint = 'ffmpeg and ffprobe are needed: install them (Debian/Ubuntu/WSL `sudo apt-get install -y ffmpeg`, macOS `brew install ffmpeg`)';
  const outcome = aptInstall('ffmpeg', { update: true });
  if (outcome === 'opted-out') throw new Error(`${hint} (not installed for you: SUPERAPP_AUTO_INSTALL=off)`);
  if (outcome !== 'installed' || !has('ffmpeg')) throw new Error(hint);
}

// A stuck ffmpeg fails its file after two minutes (one measure takes under a second) instead of holding npm test.
const RUN_TIMEOUT_MS = 120_000;

export function run(bin, args, opts = {}) {
  const res = spawnSync(bin, args, { maxBuffer: 256 * 1024 * 1024, timeout: RUN_TIMEOUT_MS, killSignal: 'SIGKILL', ...opts });
  if (res.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed${res.error ? ` (${res.error.message})` : ''}:\n${res.stderr?.toString().slice(-2000)}`);
  return res;
}

export function probe(file) {
  const out = run('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file]).stdout.toString();
  const json = JSON.parse(out);
  const stream = json.streams.find((s) => s.codec_type === 'audio');
  return { codec: stream.codec_name, channels: stream.channels, sampleRate: Number(stream.sample_rate), formatName: json.format.format_name };
}

// Decoded samples (interleaved float32), as players hear them (ffmpeg trims the encoder delay).
export function decode(file) {
  const raw = run('ffmpeg', ['-v', 'error', '-i', file, '-f', 'f32le', '-acodec', 'pcm_f32le', '-ac', '2', '-ar', '44100', '-']).stdout;
  const samples = new Float32Array(raw.buffer, raw.byteOffset, raw.length / 4);
  return { samples, channels: 2, sampleRate: 44100, durationSec: samples.length / 2 / 44100 };
}

const SILENCE = 10 ** (-60 / 20); // -60 dBFS

// Leading and trailing silence (below -60 dBFS on both channels), in ms.
export function edges(decoded) {
  const { samples } = decoded;
  const frames = samples.length / 2;
  const loud = (i) => Math.abs(samples[2 * i]) > SILENCE || Math.abs(samples[2 * i + 1]) > SILENCE;
  let first = 0;
  while (first < frames && !loud(first)) first += 1;
  let last = frames - 1;
  while (last >= 0 && !loud(last)) last -= 1;
  return { leadMs: (first / 44100) * 1000, tailMs: ((frames - 1 - last) / 44100) * 1000 };
}

export function peakDbfs(decoded) {
  let peak = 0;
  for (const s of decoded.samples) peak = Math.max(peak, Math.abs(s));
  return 20 * Math.log10(peak || 1e-9);
}

// Integrated loudness (ITU-R BS.1770 / EBU R128, ffmpeg's ebur128 filter). The meter gates in 400 ms
// blocks, so the file is played back to back until at least 3 s: the level of the content, not of a gap.
export function integratedLufs(file, durationSec) {
  const repeats = Math.max(0, Math.ceil(3 / durationSec) - 1);
  const res = run('ffmpeg', ['-hide_banner', '-nostats', '-stream_loop', String(repeats), '-i', file, '-af', 'ebur128', '-f', 'null', '-']);
  const text = res.stderr.toString();
  const summary = text.slice(text.lastIndexOf('Summary:'));
  const match = /I:\s+(-?[\d.]+) LUFS/.exec(summary);
  if (!match) throw new Error(`no integrated loudness for ${file}`);
  return Number(match[1]);
}

export function fileSize(file) {
  return fs.statSync(file).size;
}
