import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import { WebSocket } from 'ws';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import type { DemoPart, DemoWorld } from './teaching-demo.js';

/** Today in UTC, moved by `days` (the demo's dates; a day off near midnight does not matter). */
const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

interface Row {
  id: string;
  writer_ids: string[];
  student_name: string | null;
}

/** The seeder's HTTP base and the administrator's token (handed on by the seeder). */
type World = DemoWorld & { apiBase?: string; apiToken?: string };

/**
 * Types `text` into the report's last paragraph (the teacher comment) through the collaboration
 * endpoint, as the editor in a browser would: sync, then one update. Answers a `close` for when the
 * text has been signed (the connection stays open so the document stays loaded until then).
 */
function typeInto(
  apiBase: string,
  token: string,
  reportId: string,
  text: string,
  suggestionId?: string,
): Promise<() => void> {
  const url = `${apiBase.replace(/^http/, 'ws')}/collab/half-term-report:${reportId}?token=${encodeURIComponent(token)}`;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const doc = new Y.Doc();
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error('demo data: the report document did not sync'));
    }, 10_000);
    ws.on('open', () => {
      const e = encoding.createEncoder();
      encoding.writeVarUint(e, 0);
      syncProtocol.writeSyncStep1(e, doc);
      ws.send(encoding.toUint8Array(e));
    });
    ws.on('message', (data: Buffer) => {
      const d = decoding.createDecoder(new Uint8Array(data));
      if (decoding.readVarUint(d) !== 0 || decoding.readVarUint(d) !== syncProtocol.messageYjsSyncStep2)
        return;
      Y.applyUpdate(doc, decoding.readVarUint8Array(d));
      const before = Y.encodeStateVector(doc);
      const paragraphs = doc
        .getXmlFragment('default')
        .toArray()
        .filter((n): n is Y.XmlElement => n instanceof Y.XmlElement && n.nodeName === 'paragraph');
      const last = paragraphs.at(-1);
      const words = last?.firstChild;
      // A suggestion goes at the end of the comment, marked as the editor's suggestion mode marks it.
      if (suggestionId && words instanceof Y.XmlText)
        words.insert(words.length, text, { insertion: { id: suggestionId } });
      else last?.insert(0, [new Y.XmlText(text)]);
      const e = encoding.createEncoder();
      encoding.writeVarUint(e, 0);
      syncProtocol.writeUpdate(e, Y.encodeStateAsUpdate(doc, before));
      ws.send(encoding.toUint8Array(e), () => {
        clearTimeout(timer);
        // Every read of the report's hash flushes the loaded document first.
        resolve(() => ws.close());
      });
    });
    ws.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

const COMMENTS = [
  'Has settled well and now joins in every lesson; reading aloud is more confident.',
  'Completed every task this half term. Next step: show working in multi-step problems.',
  'Attendance improved after the first week. Writes in longer paragraphs with support.',
  'Good progress with fractions; needs reminders to check answers.',
  'Engaged and curious; asks good questions about the texts we read.',
];

/**
 * Half-term reports (issue 17, decision 0057), after the lessons part: an open timeframe covering the
 * last four weeks and the next two, its reports generated from the demo enrolments and lessons, one
 * discarded and some moved on. The seeder acts as the first administrator only (nobody else may sign
 * in until the portal is ready), so for a submission the administrator joins the writers, types a
 * comment through the collaboration endpoint, submits and hands the report back to its teachers (both
 * reassignments stay in the report's timeline), then reviews it in QA. States reached: draft,
 * submitted, in QA (with the reviewer's open suggestion, decision 0060), returned, QA approved,
 * published (signed by the senior tutor as QA lead through the bulk publish, decision 0068: four eyes)
 * and discarded. Every report starts with its fact blocks (attendance, lessons in the period). The
 * timeframe id is `world.teaching['timeframe:open']`, the published report `world.teaching['report:published']`.
 */
export const reportsDemo: DemoPart = {
  name: 'half-term reports',
  async seed(call, world: World) {
    const start = new Date();
    const year = start.getUTCMonth() >= 8 ? start.getUTCFullYear() : start.getUTCFullYear() - 1;
    const label = `${year}/${String((year + 1) % 100).padStart(2, '0')}`;
    const created = await call('POST', '/report-submission-timeframes/', {
      name: `Autumn 2 ${label}`,
      academic_year: label,
      half_term: 'autumn_2',
      network_id: world.networks.england ?? null,
      period_from: dayFromToday(-28),
      period_to: dayFromToday(14),
      opens_at: dayFromToday(-7),
      submit_by: dayFromToday(7),
      qa_by: dayFromToday(10),
      release_at: dayFromToday(14),
    });
    const timeframeId = created.body.id as string;
    world.teaching['timeframe:open'] = timeframeId;
    await call('POST', `/report-submission-timeframes/${timeframeId}/generate`, {});
    const reports = (await call('GET', `/half-term-reports/?timeframe_id=${timeframeId}&size=50`)).body
      .items as Row[];
    const [discarded, ...rest] = reports;
    if (discarded)
      await call('POST', `/half-term-reports/${discarded.id}/discard`, { reason: 'Student moved school' });
    const { apiBase, apiToken } = world;
    if (!apiBase || !apiToken) return;
    const adminId = (await call('GET', '/users/me')).body.id as string;
    const hash = async (id: string) =>
      (await call('GET', `/half-term-reports/${id}`)).body.content_hash as string;

    // Report n goes to the n-th state of this list; the rest stay drafts (their fact blocks, attendance
    // and lessons from the attendance demo, were written at generation and refresh when a writer opens
    // one). The published one is signed by the senior tutor as QA lead (four eyes: not a writer of it,
    // not the QA approver), so it is one they do not write.
    const lead = world.teacherIds[0];
    const signable = rest.findIndex((r, i) => i >= 4 && !!lead && !r.writer_ids.includes(lead));
    if (signable > 4) [rest[4], rest[signable]] = [rest[signable]!, rest[4]!];
    const targets = ['submitted', 'in_qa', 'returned', 'qa_approved', 'published'] as const;
    for (const [n, target] of targets.entries()) {
      const report = rest[n];
      if (!report) break;
      await call('PUT', '/half-term-reports/assignments', {
        items: [{ report_id: report.id, writer_ids: [...report.writer_ids, adminId] }],
      });
      // The read waits for the reassignment to be in the read models: the document then opens writable.
      const before = await hash(report.id);
      const close = await typeInto(apiBase, apiToken, report.id, COMMENTS[n % COMMENTS.length]!);
      try {
        let now = before;
        for (let tries = 0; now === before && tries < 100; tries++) {
          await new Promise((r) => setTimeout(r, 50));
          now = await hash(report.id);
        }
        await call('POST', `/half-term-reports/${report.id}/submit`, { expected_hash: now });
      } finally {
        close();
      }
      await call('PUT', '/half-term-reports/assignments', {
        items: [{ report_id: report.id, writer_ids: report.writer_ids }],
      });
      if (target === 'submitted') continue;
      await call('POST', `/half-term-reports/${report.id}/qa/claim`, {});
      if (target === 'in_qa') {
        // The collaboration server reads who may edit from the read model: this read waits for the
        // claim to be in it (X-Min-Position), so the reviewer's editor opens as the claimer's.
        await call('GET', `/half-term-reports/${report.id}`);
        // The reviewer leaves an open suggestion for the writers (decision 0060).
        const close = await typeInto(
          apiBase,
          apiToken,
          report.id,
          ' Next step: read one chapter aloud each week.',
          `u${adminId}.demo.1`,
        );
        try {
          for (let tries = 0; tries < 400; tries++) {
            const open = (await call('GET', `/half-term-reports/${report.id}`)).body.unresolved_suggestions;
            if (open === 1) break;
            await new Promise((r) => setTimeout(r, 50));
          }
        } finally {
          close();
        }
      }
      if (target === 'returned')
        await call('POST', `/half-term-reports/${report.id}/qa/request-changes`, {
          reason: 'Please add one concrete next step for the student.',
        });
      if (target === 'qa_approved' || target === 'published')
        await call('POST', `/half-term-reports/${report.id}/qa/approve`, {
          expected_hash: await hash(report.id),
        });
      if (target === 'published' && lead && signable >= 4 && world.callAs) {
        // The lead's bulk sign-off (decision 0068): the facts are frozen in revision 1 and its PDF.
        const expected = await hash(report.id);
        const asLead = await world.callAs(lead);
        await asLead('POST', '/half-term-reports/lead/publish', {
          items: [{ report_id: report.id, expected_hash: expected }],
        });
        world.teaching['report:published'] = report.id;
      }
    }
  },
};
