import { Alert, Avatar, Badge, Group, Loader, Select, Stack, Text, Tooltip } from '@mantine/core';
import { RichTextEditor, useRichTextEditorContext } from '@mantine/tiptap';
import '@mantine/tiptap/styles.css';
import Collaboration from '@tiptap/extension-collaboration';
import CollaborationCaret from '@tiptap/extension-collaboration-caret';
import Subscript from '@tiptap/extension-subscript';
import Superscript from '@tiptap/extension-superscript';
import { BackgroundColor, Color, FontSize, TextStyle } from '@tiptap/extension-text-style';
import { useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useMemo, useRef, useState } from 'react';
import type * as Y from 'yjs';
import { useSession } from '../session';
import {
  EDIT_REFUSED,
  openCollabDocument,
  textSettled,
  type CollabSession,
  type CollabStatus,
  type RefusedEdit,
} from './collab-connection';
import {
  Deletion,
  Insertion,
  Modification,
  REFUSAL_TEXT,
  SectionGuard,
  SuggestChanges,
  type SuggestRefusal,
} from './suggest-changes';
import classes from './CollabEditor.module.css';
import { FactBlock } from './fact-block';

export interface CollabEditorProps {
  /** `{kind}:{id}`, e.g. `safeguarding-incident:8d0c…`. */
  documentName: string;
  /** Read-only users see every change live; the server drops anything they would send anyway. */
  readOnly?: boolean;
  /** Accessible name of the editing area. */
  label: string;
  /** Told the live Yjs document when it opens (null when it closes), e.g. to hash what the user sees. */
  onDocument?: (doc: Y.Doc | null) => void;
  /** Suggestion mode (decision 0060): the user's edits become suggestions; formatting is off. */
  suggesting?: boolean;
  /** Template sections may be neither deleted nor moved (half-term reports). */
  guardSections?: boolean;
  /** Told the editor when it is ready (null when it goes), e.g. to accept or reject suggestions. */
  onEditor?: (editor: Editor | null) => void;
  /** Told when the server refused one of this user's edits (it was kept; the editor starts again). */
  onRefused?: (edit: RefusedEdit) => void;
  /** Told whether the text shown is the server's (`textSettled`), each time that changes. */
  onSettled?: (settled: boolean) => void;
}

interface Peer {
  clientId: number;
  name: string;
  color: string;
}

const FONT_SIZES = ['12px', '14px', '16px', '18px', '24px', '32px'];
const SWATCHES = [
  '#25262b',
  '#868e96',
  '#c92a2a',
  '#d9480f',
  '#e67700',
  '#2b8a3e',
  '#0b7285',
  '#1864ab',
  '#5f3dc4',
];

/**
 * A Tiptap editor bound to a collaborative document on the portal's y-websocket server: live
 * co-editing with named cursors, the spec's §5 toolbar (headers, size, bold, italic, underline,
 * strike, code block, colour, background, lists, blockquote, sub/superscript, link), who else is
 * here, and the connection state. Names and colours come from the server (the session), not from us.
 */
export default function CollabEditor({
  documentName,
  readOnly = false,
  label,
  onDocument,
  suggesting = false,
  guardSections = false,
  onEditor,
  onRefused,
  onSettled,
}: CollabEditorProps) {
  const token = useSession((state) => state.token);
  const userId = useSession((state) => String(state.user?.id ?? ''));
  // A refused edit starts the document again from the server's text (a new Y.Doc).
  const [generation, setGeneration] = useState(0);
  const onRefusedRef = useRef(onRefused);
  onRefusedRef.current = onRefused;
  const [closed, setClosed] = useState<string | null>(null);
  const [session, setSession] = useState<CollabSession | null>(null);
  const [status, setStatus] = useState<CollabStatus>('connecting');
  const [synced, setSynced] = useState(false);
  const [everSynced, setEverSynced] = useState(false);
  const [unsaved, setUnsaved] = useState(true);
  const [peers, setPeers] = useState<Peer[]>([]);
  const onDocumentRef = useRef(onDocument);
  onDocumentRef.current = onDocument;

  useEffect(() => {
    if (!token) return undefined;
    setClosed(null);
    setSynced(false);
    setEverSynced(false);
    const opened = openCollabDocument(
      documentName,
      token,
      (code, reason) => {
        if (code === EDIT_REFUSED) {
          // Forget this browser's copy of the refused edit (the server kept it) and start again.
          void opened.offline?.clearData();
          setGeneration((g) => g + 1);
          return;
        }
        setClosed(reason);
        setStatus('closed');
      },
      {
        offlineKey: userId ? `portal:${userId}:${documentName}` : undefined,
        onRefused: (edit) => onRefusedRef.current?.(edit),
      },
    );
    const { provider } = opened;
    const onStatus = ({ status: s }: { status: 'connecting' | 'connected' | 'disconnected' }) =>
      setStatus((current) => (current === 'closed' ? current : s));
    const onSync = (isSynced: boolean) => {
      setSynced(isSynced);
      if (isSynced) setEverSynced(true);
    };
    const stopSaves = opened.saves.subscribe(() => setUnsaved(opened.saves.unsaved));
    setUnsaved(opened.saves.unsaved);
    const onAwareness = () => {
      const list: Peer[] = [];
      provider.awareness.getStates().forEach((state, clientId) => {
        const user = (state as { user?: { name?: string; color?: string } }).user;
        if (clientId !== provider.awareness.clientID && user?.name)
          list.push({ clientId, name: user.name, color: user.color ?? '#868e96' });
      });
      setPeers(list);
    };
    provider.on('status', onStatus);
    provider.on('sync', onSync);
    provider.awareness.on('change', onAwareness);
    setSession(opened);
    onDocumentRef.current?.(opened.doc);
    return () => {
      provider.awareness.off('change', onAwareness);
      stopSaves();
      onDocumentRef.current?.(null);
      setSession(null);
      opened.destroy();
    };
  }, [documentName, token, userId, generation]);

  const settled = textSettled({ status, synced, unsaved, readOnly: readOnly || closed !== null });
  const onSettledRef = useRef(onSettled);
  onSettledRef.current = onSettled;
  useEffect(() => {
    onSettledRef.current?.(settled);
  }, [settled]);

  if (!session) return <EditorLoading />;
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="nowrap">
        <ConnectionBadge
          status={status}
          synced={synced}
          everSynced={everSynced}
          unsaved={unsaved}
          keptOffline={session.offline !== null}
          readOnly={readOnly || closed !== null}
        />
        <PeerList peers={peers} />
      </Group>
      {closed && (
        <Alert color="red" variant="light" title="Editing stopped" role="alert">
          {closed}
        </Alert>
      )}
      <BoundEditor
        key={`${documentName}:${generation}`}
        session={session}
        editable={!readOnly && !closed}
        label={label}
        ready={everSynced}
        suggesting={suggesting}
        guardSections={guardSections}
        userId={userId}
        onEditor={onEditor}
      />
    </Stack>
  );
}

function BoundEditor({
  session,
  editable,
  label,
  ready,
  suggesting,
  guardSections,
  userId,
  onEditor,
}: {
  session: CollabSession;
  editable: boolean;
  label: string;
  ready: boolean;
  suggesting: boolean;
  guardSections: boolean;
  userId: string;
  onEditor?: (editor: Editor | null) => void;
}) {
  const [notice, setNotice] = useState<SuggestRefusal | null>(null);
  const suggestingRef = useRef(suggesting);
  suggestingRef.current = suggesting;
  const extensions = useMemo(
    () => [
      Insertion,
      Deletion,
      Modification,
      SuggestChanges.configure({
        suggesting: () => suggestingRef.current,
        userId,
        onRefused: setNotice,
      }),
      ...(guardSections ? [SectionGuard.configure({ onRefused: setNotice })] : []),
      StarterKit.configure({
        undoRedo: false,
        link: { openOnClick: false, autolink: true, protocols: ['http', 'https', 'mailto'] },
      }),
      TextStyle,
      Color,
      BackgroundColor,
      FontSize,
      Subscript,
      Superscript,
      FactBlock,
      Collaboration.configure({ document: session.doc }),
      CollaborationCaret.configure({ provider: session.provider, user: { name: '…', color: '#868e96' } }),
    ],
    [session, userId, guardSections],
  );
  const editor = useEditor(
    {
      extensions,
      editable,
      immediatelyRender: false,
      editorProps: { attributes: { 'aria-label': label, role: 'textbox', 'aria-multiline': 'true' } },
    },
    [extensions],
  );
  useEffect(() => {
    editor?.setEditable(editable);
  }, [editor, editable]);
  const onEditorRef = useRef(onEditor);
  onEditorRef.current = onEditor;
  useEffect(() => {
    if (!editor || !ready) return undefined;
    onEditorRef.current?.(editor);
    return () => onEditorRef.current?.(null);
  }, [editor, ready]);
  useEffect(() => {
    if (!notice) return undefined;
    const t = setTimeout(() => setNotice(null), 6000);
    return () => clearTimeout(t);
  }, [notice]);

  if (!editor || !ready) return <EditorLoading />;
  return (
    <RichTextEditor editor={editor} className={classes.editor} data-suggesting={suggesting || undefined}>
      {notice && (
        <Alert color="yellow" variant="light" role="status" m="xs">
          {REFUSAL_TEXT[notice]}
        </Alert>
      )}
      {editable && !suggesting && (
        <RichTextEditor.Toolbar sticky stickyOffset={0} aria-label="Formatting">
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.H1 />
            <RichTextEditor.H2 />
            <RichTextEditor.H3 />
            <RichTextEditor.H4 />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <FontSizeControl />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Bold />
            <RichTextEditor.Italic />
            <RichTextEditor.Underline />
            <RichTextEditor.Strikethrough />
            <RichTextEditor.CodeBlock />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.ColorPicker colors={SWATCHES} />
            <RichTextEditor.UnsetColor />
            <BackgroundControl />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.BulletList />
            <RichTextEditor.OrderedList />
            <RichTextEditor.Blockquote />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Subscript />
            <RichTextEditor.Superscript />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Link />
            <RichTextEditor.Unlink />
          </RichTextEditor.ControlsGroup>
        </RichTextEditor.Toolbar>
      )}
      <RichTextEditor.Content />
    </RichTextEditor>
  );
}

function FontSizeControl() {
  const { editor } = useRichTextEditorContext();
  const size = useEditorState({
    editor,
    selector: (ctx) => (ctx.editor?.getAttributes('textStyle').fontSize as string | undefined) ?? null,
  });
  return (
    <Select
      aria-label="Text size"
      size="xs"
      w={92}
      placeholder="Size"
      data={FONT_SIZES}
      value={size}
      clearable
      onChange={(value) => {
        const chain = editor?.chain().focus();
        if (!chain) return;
        if (value) chain.setFontSize(value).run();
        else chain.unsetFontSize().run();
      }}
    />
  );
}

const BACKGROUNDS = ['#fff3bf', '#d3f9d8', '#d0ebff', '#ffe3e3', '#f3d9fa'];

function BackgroundControl() {
  const { editor } = useRichTextEditorContext();
  return (
    <>
      {BACKGROUNDS.map((colour) => (
        <RichTextEditor.Control
          key={colour}
          aria-label={`Background ${colour}`}
          title="Background colour"
          onClick={() => editor?.chain().focus().setBackgroundColor(colour).run()}
        >
          <span className={classes.swatch} style={{ background: colour }} />
        </RichTextEditor.Control>
      ))}
      <RichTextEditor.Control
        aria-label="Remove background"
        title="Remove background"
        onClick={() => editor?.chain().focus().unsetBackgroundColor().run()}
      >
        <span
          className={classes.swatch}
          style={{ background: 'repeating-linear-gradient(45deg,#fff 0 3px,#dee2e6 3px 6px)' }}
        />
      </RichTextEditor.Control>
    </>
  );
}

/**
 * The connection and save state (decision 0067): "Saved ✓" only once the server has confirmed that
 * everything typed here is stored; "Saving…" while it has not; offline, whether edits wait on this device.
 */
export function ConnectionBadge({
  status,
  synced,
  everSynced,
  unsaved,
  keptOffline,
  readOnly,
}: {
  status: CollabStatus;
  synced: boolean;
  everSynced: boolean;
  unsaved: boolean;
  keptOffline: boolean;
  readOnly: boolean;
}) {
  const online = status === 'connected' && synced;
  const [label, color] =
    status === 'closed'
      ? ['Stopped', 'red']
      : online
        ? readOnly
          ? ['Live', 'teal']
          : unsaved
            ? ['Saving…', 'blue']
            : ['Saved ✓', 'teal']
        : everSynced
          ? readOnly || !unsaved
            ? ['Offline · reconnecting', 'orange']
            : keptOffline
              ? ['Offline — kept on this device', 'orange']
              : ['Offline — not saved yet', 'red']
          : ['Connecting…', 'gray'];
  return (
    <Group gap="xs">
      <Badge color={color} variant="light" role="status" aria-live="polite">
        {label}
      </Badge>
      {readOnly && (
        <Badge color="gray" variant="outline">
          Read only
        </Badge>
      )}
    </Group>
  );
}

function PeerList({ peers }: { peers: Peer[] }) {
  if (peers.length === 0)
    return (
      <Text size="xs" c="dimmed">
        Nobody else is here
      </Text>
    );
  return (
    <Group gap={6} aria-label="Also here">
      <Text size="xs" c="dimmed">
        Also here:
      </Text>
      <Avatar.Group spacing="xs">
        {peers.slice(0, 5).map((p) => (
          <Tooltip key={p.clientId} label={p.name} withArrow>
            <Avatar
              size="sm"
              radius="xl"
              color={p.color}
              styles={{ placeholder: { background: p.color, color: '#fff' } }}
              alt={p.name}
            >
              {p.name
                .split(/\s+/)
                .map((w) => w[0])
                .join('')
                .slice(0, 2)
                .toUpperCase()}
            </Avatar>
          </Tooltip>
        ))}
        {peers.length > 5 && (
          <Avatar size="sm" radius="xl">
            +{peers.length - 5}
          </Avatar>
        )}
      </Avatar.Group>
    </Group>
  );
}

function EditorLoading() {
  return (
    <Group gap="xs" p="md" role="status" aria-live="polite">
      <Loader size="sm" />
      <Text size="sm" c="dimmed">
        Opening the document…
      </Text>
    </Group>
  );
}
