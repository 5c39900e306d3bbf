import { inflateSync } from 'node:zlib';

// Bytes 0x80-0x9F of WinAnsiEncoding that differ from Latin-1 (the ones a receipt can contain).
const WIN_ANSI: Record<number, string> = { 0x80: '€', 0x91: '‘', 0x92: '’', 0x93: '“', 0x94: '”', 0x95: '•', 0x96: '–', 0x97: '—' };

const decodeHex = (hex: string) =>
  (hex.replace(/\s/g, '').match(/../g) ?? [])
    .map((pair) => WIN_ANSI[parseInt(pair, 16)] ?? String.fromCharCode(parseInt(pair, 16)))
    .join('');

function inflated(stream: string): string | undefined {
  try {
    return inflateSync(Buffer.from(stream, 'latin1')).toString('latin1');
  } catch {
    return undefined;
  }
}

/**
 * The text of a PDF written with standard fonts (as pdfkit writes receipts): every content stream is
 * inflated and the strings of its text operators joined, one line per text object.
 */
export function pdfText(pdf: Buffer): string {
  const lines: string[] = [];
  const source = pdf.toString('latin1');
  for (const match of source.matchAll(/stream\r?\n([\s\S]*?)(\r?)\nendstream/g)) {
    // A compressed stream whose last byte is a carriage return looks like one ended by CR LF: inflated with and without it.
    const content = inflated(match[1]! + match[2]!) ?? inflated(match[1]!) ?? match[1]!;
    for (const block of content.matchAll(/BT([\s\S]*?)ET/g)) {
      const strings = [...block[1]!.matchAll(/<([0-9a-fA-F\s]*)>|\(((?:\\.|[^\\)])*)\)/g)].map(([, hex, literal]) =>
        hex !== undefined ? decodeHex(hex) : (literal ?? '').replace(/\\(.)/g, '$1'),
      );
      if (strings.length > 0) lines.push(strings.join(''));
    }
  }
  return lines.join('\n');
}
