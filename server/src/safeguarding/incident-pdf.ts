import PDFDocument from 'pdfkit';
import * as Y from 'yjs';
import type { RecordedEvent } from '../platform/event-store/event-store.js';
import {
  DOCUMENT_SNAPSHOT_TAKEN,
  DOCUMENT_UPDATED,
  type DocumentSnapshotTakenData,
  type DocumentUpdatedData,
} from '../platform/collaboration/collab.protocol.js';
import { fromBase64 } from '../platform/collaboration/document-persistence.js';
import type { IncidentDetailsView } from './incidents.dto.js';

/** The write-up's text, rebuilt from its document stream (plain `body` text and Tiptap's `default` fragment). */
export function writeUpText(events: readonly RecordedEvent[]): string {
  const doc = new Y.Doc();
  for (const e of events) {
    if (e.type === DOCUMENT_SNAPSHOT_TAKEN)
      Y.applyUpdate(doc, fromBase64((e.data as DocumentSnapshotTakenData).state));
    if (e.type === DOCUMENT_UPDATED) Y.applyUpdate(doc, fromBase64((e.data as DocumentUpdatedData).update));
  }
  const plain = doc.getText('body').toJSON();
  const rich = doc
    .getXmlFragment('default')
    .toJSON()
    .replace(/<\/(paragraph|heading|listItem|blockquote|codeBlock)>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .trim();
  return [plain, rich].filter(Boolean).join('\n\n');
}

export interface IncidentPdfInput {
  /** The reader's view (decision 0037): sections its view leaves out are left out of the PDF. */
  incident: IncidentDetailsView;
  writeUp: string;
  /** Highest global position among the events the document was built from. */
  position: bigint;
  names: ReadonlyMap<string, string>;
}

const when = (iso: string | null) =>
  iso ? new Date(iso).toISOString().replace('T', ' ').slice(0, 16) + ' UTC' : '—';

/** Renders the incident, its chronology, actions, partner steps and write-up (those the view has) as a PDF. */
export function renderIncidentPdf(
  input: IncidentPdfInput,
  options: { compress?: boolean } = {},
): Promise<Buffer> {
  const { incident: i, writeUp, position, names } = input;
  const name = (id: string | null) => (id ? (names.get(id) ?? id) : '—');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    compress: options.compress ?? true,
    info: {
      Title: `Safeguarding incident ${i.id}`,
      Subject: `Built from event position ${position}`,
      Creator: 'Tutoring Portal',
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const heading = (text: string) =>
    doc
      .moveDown(0.8)
      .font('Helvetica-Bold')
      .fontSize(13)
      .text(text)
      .moveDown(0.3)
      .font('Helvetica')
      .fontSize(10);
  const field = (label: string, value: string) =>
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .text(`${label}: `, { continued: true })
      .font('Helvetica')
      .text(value);

  doc.font('Helvetica-Bold').fontSize(18).text('Safeguarding incident (confidential)');
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor('#555')
    .text(`Built from event position ${position}`)
    .fillColor('black');
  heading('Incident');
  field('Reference', i.id);
  field('Status', i.status);
  field('Risk level', i.risk_level);
  field('Students', i.students.map((s) => s.name || s.id).join(', '));
  field('Types', i.types.map((t) => t.name || t.id).join(', '));
  field('Happened', when(i.occurred_at));
  field('Reported', `${when(i.reported_at)} by ${i.reporter.name || i.reporter.id}`);
  field('Lesson', i.lesson_id ?? '—');
  field('Lead told verbally', i.lead_told_verbally ? 'yes' : 'no');
  const acknowledgedBy = i.acknowledged_by !== undefined ? ` by ${name(i.acknowledged_by)}` : '';
  field('Acknowledged', i.acknowledged_at ? `${when(i.acknowledged_at)}${acknowledgedBy}` : 'not yet');
  if (i.assigned_lead_id !== undefined) field('Assigned lead', name(i.assigned_lead_id));
  if (i.escalated_at) field('Escalated', when(i.escalated_at));
  if (i.closed_at) field('Closed', when(i.closed_at));
  heading('Description');
  doc.font('Helvetica').fontSize(10).text(i.description);
  heading('Immediate action taken');
  doc.text(i.immediate_action || '—');

  if (i.actions) {
    heading('Actions');
    const actions = i.actions as {
      description: string;
      assignee_id?: string;
      due_date: string;
      referral: { agency: string; reference?: string | null } | null;
    }[];
    if (actions.length === 0) doc.fontSize(10).text('None recorded.');
    for (const a of actions) {
      const referral = a.referral
        ? ` — referral to ${a.referral.agency}${a.referral.reference ? ` (ref. ${a.referral.reference})` : ''}`
        : '';
      const who = a.assignee_id !== undefined ? ` — ${name(a.assignee_id)},` : ',';
      doc.fontSize(10).text(`• ${a.description}${who} due ${a.due_date}${referral}`);
    }
  }

  if (i.partner_informed && i.partner_feedback) {
    heading('Partner');
    const steps = [
      ...(i.partner_informed as { at: string; text?: string }[]).map((s) => ({ ...s, label: 'Informed' })),
      ...(i.partner_feedback as { at: string; text?: string }[]).map((s) => ({ ...s, label: 'Feedback' })),
    ];
    if (steps.length === 0) doc.fontSize(10).text('Not informed yet.');
    for (const s of steps)
      doc.fontSize(10).text(`${s.label}, ${when(s.at)}${s.text !== undefined ? `: ${s.text}` : ''}`);
  }

  if (i.timeline) {
    heading('Chronology');
    for (const t of i.timeline) doc.fontSize(10).text(`${when(t.occurred_at)} — ${t.kind}: ${t.summary}`);
  }

  heading('Write-up');
  doc.fontSize(10).text(writeUp || 'No write-up yet.');
  doc.end();
  return done;
}
