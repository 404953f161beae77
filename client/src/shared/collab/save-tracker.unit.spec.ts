import { describe, expect, it } from '@jest/globals';
import * as encoding from 'lib0/encoding';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import { SaveTracker, syncMessageKind, textSettled } from './collab-connection';

/** The browser's side of the "saved" acknowledgement (decision 0067). */
describe('SaveTracker', () => {
  const connected = () => {
    const t = new SaveTracker();
    t.connecting();
    t.sending('step2'); // the answer to the server's sync step 1
    return t;
  };

  it('is unsaved until the server confirms the first sync step (the offline copy may hold edits)', () => {
    const t = connected();
    expect(t.unsaved).toBe(true);
    t.ack(1);
    expect(t.unsaved).toBe(false);
  });

  it('is saved only when every sent update is acknowledged', () => {
    const t = connected();
    t.ack(1);
    t.sending('update');
    t.sending('update');
    expect(t.unsaved).toBe(true);
    t.ack(2);
    expect(t.unsaved).toBe(true);
    t.ack(3);
    expect(t.unsaved).toBe(false);
  });

  it('carries edits that were sent but not confirmed across a reconnect, until the new step 2 is confirmed', () => {
    const t = connected();
    t.ack(1);
    t.sending('update');
    t.connecting(); // dropped before the ack
    expect(t.unsaved).toBe(true);
    t.ack(5); // a stray count from nowhere cannot clear it before the step 2 went out
    expect(t.unsaved).toBe(true);
    t.sending('step2');
    t.ack(1);
    expect(t.unsaved).toBe(false);
  });

  it('carries edits typed while offline', () => {
    const t = connected();
    t.ack(1);
    t.localChange(false);
    expect(t.unsaved).toBe(true);
    t.connecting();
    t.sending('step2');
    t.sending('update');
    t.ack(1);
    expect(t.unsaved).toBe(true);
    t.ack(2);
    expect(t.unsaved).toBe(false);
  });

  it('tells listeners when the state changes', () => {
    const t = new SaveTracker();
    const seen: boolean[] = [];
    const stop = t.subscribe(() => seen.push(t.unsaved));
    t.connecting();
    t.sending('step2');
    t.ack(1);
    stop();
    t.sending('update');
    expect(seen).toEqual([true, true, false]);
  });
});

describe('syncMessageKind', () => {
  const doc = new Y.Doc();
  doc.getText('t').insert(0, 'x');
  const frame = (write: (e: encoding.Encoder) => void) => {
    const e = encoding.createEncoder();
    encoding.writeVarUint(e, 0);
    write(e);
    return encoding.toUint8Array(e);
  };

  it('counts sync step 2 and update messages, not step 1, awareness or text', () => {
    expect(syncMessageKind(frame((e) => syncProtocol.writeSyncStep1(e, doc)))).toBeNull();
    expect(syncMessageKind(frame((e) => syncProtocol.writeSyncStep2(e, doc)))).toBe('step2');
    expect(syncMessageKind(frame((e) => syncProtocol.writeUpdate(e, Y.encodeStateAsUpdate(doc))))).toBe(
      'update',
    );
    expect(syncMessageKind(frame((e) => syncProtocol.writeUpdate(e, new Uint8Array([0, 0]))).buffer)).toBe(
      'update',
    );
    expect(syncMessageKind(new Uint8Array([1, 2, 3]))).toBeNull();
    expect(syncMessageKind('hello')).toBeNull();
  });
});

describe('textSettled: when the text shown may be signed (submit, approve, publish)', () => {
  const base = { status: 'connected' as const, synced: true, unsaved: false, readOnly: false };

  it('is the server text once connected, synced and everything typed here is stored', () => {
    expect(textSettled(base)).toBe(true);
  });

  it('is not while connecting, offline, closed or before the first sync', () => {
    expect(textSettled({ ...base, status: 'connecting' })).toBe(false);
    expect(textSettled({ ...base, status: 'disconnected' })).toBe(false);
    expect(textSettled({ ...base, status: 'closed' })).toBe(false);
    expect(textSettled({ ...base, synced: false })).toBe(false);
  });

  it('waits for the save of what an editor typed, but not for a reader, who sends nothing', () => {
    expect(textSettled({ ...base, unsaved: true })).toBe(false);
    expect(textSettled({ ...base, unsaved: true, readOnly: true })).toBe(true);
    expect(textSettled({ ...base, unsaved: true, readOnly: true, synced: false })).toBe(false);
  });
});
