import { constants, inflateSync } from 'node:zlib';

/**
 * The text drawn in a PDF made by pdfkit (for tests): inflates each content stream and decodes the hex
 * strings of its text operators, one line per TJ/Tj operator.
 */
export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const lines: string[] = [];
  // pdfkit writes `stream\n…\nendstream`: a `\r?` here would eat a compressed stream's last byte when it
  // happens to be 0x0D (about one PDF in 256), and the text would come out empty.
  const streams = /stream\n([\s\S]*?)\nendstream/g;
  for (let m = streams.exec(raw); m; m = streams.exec(raw)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(m[1]!, 'latin1'), { finishFlush: constants.Z_SYNC_FLUSH }).toString(
        'latin1',
      );
    } catch {
      content = m[1]!;
    }
    const ops = /(\[(?:[^\]]*)\]\s*TJ|<[0-9a-fA-F]*>\s*Tj)/g;
    for (let op = ops.exec(content); op; op = ops.exec(content)) {
      const hex = [...op[1]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((h) =>
        Buffer.from(h[1]!, 'hex').toString('latin1'),
      );
      lines.push(hex.join(''));
    }
  }
  return lines.join('\n');
}
