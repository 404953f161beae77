import PDFDocument from 'pdfkit';
import {
  FACT_BLOCK,
  factText,
  reportAssignees,
  type ContentNode,
  type HalfTermReportListRow,
  type Queryable,
  type ReportFact,
  type ReportRevisionRow,
} from '@portal/projections';

export interface ReportPdfInput {
  reportId: string;
  revision: number;
  hash: string;
  studentName: string;
  programmeTitle: string;
  schoolName: string;
  timeframeName: string;
  publishedAt: string;
  publishedBy: string;
  qaApprovedBy: string | null;
  /** The frozen content of the revision (from its canonical JSON). */
  content: ContentNode;
  revoked: boolean;
}

const when = (iso: string) => new Date(iso).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

type Font = 'Helvetica' | 'Helvetica-Bold' | 'Helvetica-Oblique' | 'Helvetica-BoldOblique' | 'Courier';

function fontOf(marks: ContentNode['marks']): Font {
  const has = (type: string) => (marks ?? []).some((m) => m.type === type);
  if (has('code')) return 'Courier';
  if (has('bold') && has('italic')) return 'Helvetica-BoldOblique';
  if (has('bold')) return 'Helvetica-Bold';
  if (has('italic')) return 'Helvetica-Oblique';
  return 'Helvetica';
}

/**
 * One published revision of a half-term report as a PDF (decision 0057), rendered on the server from
 * the revision's frozen canonical content: headings, paragraphs, lists and quotes with bold, italic,
 * underline, strike, code and colour; the footer prints the report id, revision, SHA-256 and signers.
 */
export function renderReportPdf(
  input: ReportPdfInput,
  options: { compress?: boolean } = {},
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    bufferPages: true,
    margins: { top: 50, left: 50, right: 50, bottom: 80 },
    compress: options.compress ?? true,
    info: {
      Title: `Half-term report ${input.studentName} (${input.timeframeName})`,
      Subject: `Report ${input.reportId}, revision ${input.revision}, SHA-256 ${input.hash}`,
      Creator: 'Tutoring Portal',
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('Helvetica-Bold').fontSize(18).text(`Half-term report: ${input.studentName}`);
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor('#444')
    .text(`${input.programmeTitle} · ${input.schoolName} · ${input.timeframeName}`)
    .fillColor('black');
  if (input.revoked)
    doc
      .moveDown(0.5)
      .font('Helvetica-Bold')
      .fillColor('#c92a2a')
      .text('This revision was revoked.')
      .fillColor('black');
  doc.moveDown();

  const inline = (nodes: ContentNode[], size: number) => {
    const texts = nodes.filter((n) => n.type === 'text' || n.type === 'hardBreak');
    if (texts.length === 0) {
      doc.fontSize(size).text(' ');
      return;
    }
    texts.forEach((n, i) => {
      const last = i === texts.length - 1;
      const marks = n.marks ?? [];
      const colour = marks.find((m) => m.type === 'textStyle')?.attrs?.color;
      doc
        .font(fontOf(marks))
        .fontSize(size)
        .fillColor(typeof colour === 'string' ? colour : 'black')
        .text(n.type === 'hardBreak' ? '\n' : (n.text ?? ''), {
          continued: !last,
          underline: marks.some((m) => m.type === 'underline'),
          strike: marks.some((m) => m.type === 'strike'),
        });
    });
    doc.fillColor('black');
  };
  const block = (node: ContentNode, prefix = '') => {
    switch (node.type) {
      case 'heading': {
        const level = Number(node.attrs?.level ?? 2);
        doc.moveDown(0.6);
        inline(node.content ?? [], level <= 1 ? 16 : level === 2 ? 13 : 11);
        doc.moveDown(0.2);
        return;
      }
      case 'paragraph':
        if (prefix) doc.font('Helvetica').fontSize(10).text(prefix, { continued: true });
        inline(node.content ?? [], 10);
        doc.moveDown(0.3);
        return;
      case 'codeBlock':
        doc
          .font('Courier')
          .fontSize(9)
          .text((node.content ?? []).map((n) => n.text ?? '').join(''));
        doc.moveDown(0.3);
        return;
      case FACT_BLOCK: {
        // A fact block (decision 0068): the facts as signed, in a grey box.
        const text = factText(node.attrs as unknown as ReportFact);
        const x = doc.page.margins.left;
        const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
        doc.font('Helvetica').fontSize(10);
        const height = doc.heightOfString(text, { width: width - 16 }) + 10;
        const y = doc.y;
        doc.save().rect(x, y, width, height).fill('#f1f3f5').restore();
        doc.fillColor('#212529').text(text, x + 8, y + 5, { width: width - 16 });
        doc.fillColor('black').text('', x, y + height + 4);
        return;
      }
      case 'bulletList':
      case 'orderedList':
        (node.content ?? []).forEach((item, i) =>
          (item.content ?? []).forEach((child, j) =>
            block(child, j === 0 ? (node.type === 'bulletList' ? '•  ' : `${i + 1}.  `) : '   '),
          ),
        );
        return;
      default:
        (node.content ?? []).forEach((child) => block(child, prefix));
    }
  };
  (input.content.content ?? []).forEach((node) => block(node));

  const footer = [
    `Report ${input.reportId} · revision ${input.revision} · published ${when(input.publishedAt)}`,
    `Signed by the QA lead ${input.publishedBy}${input.qaApprovedBy ? `, QA approved by ${input.qaApprovedBy}` : ''}`,
    `SHA-256 of the signed text: ${input.hash}`,
  ];
  const range = doc.bufferedPageRange();
  for (let p = range.start; p < range.start + range.count; p++) {
    doc.switchToPage(p);
    // Writing into the bottom margin would otherwise start a new page.
    doc.page.margins.bottom = 0;
    const bottom = doc.page.height - 60;
    doc.font('Helvetica').fontSize(7).fillColor('#666');
    footer.forEach((line, i) =>
      doc.text(line, 50, bottom + i * 9, { width: doc.page.width - 100, lineBreak: false }),
    );
  }
  doc.end();
  return done;
}

/** A published revision of a report as a PDF, with its signers' names (single and batch download). */
export async function revisionPdf(
  db: Queryable,
  row: HalfTermReportListRow,
  revision: ReportRevisionRow,
): Promise<Buffer> {
  const people = await reportAssignees(
    db,
    [revision.published_by, revision.qa_approved_by].filter((p): p is string => !!p),
  );
  const name = (userId: string | null) =>
    userId === null ? null : (people.find((p) => p.id === userId)?.full_name ?? userId);
  return renderReportPdf({
    reportId: row.id,
    revision: revision.revision,
    hash: revision.hash,
    studentName: row.student_name ?? row.student_id,
    programmeTitle: row.programme_title ?? '',
    schoolName: row.customer_name ?? '',
    timeframeName: row.timeframe_name,
    publishedAt: new Date(revision.published_at).toISOString(),
    publishedBy: name(revision.published_by)!,
    qaApprovedBy: name(revision.qa_approved_by),
    content: (JSON.parse(revision.canonical) as { content: ContentNode }).content,
    revoked: revision.revoked_at !== null,
  });
}
