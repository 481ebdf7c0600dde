import { useCallback, useMemo, useRef, useState } from 'react';
import {
  MAX_STEPS,
  MAX_TRIMS,
  MIN_STEPS,
  MIN_TRIM_SECONDS,
  type DraftStep,
  type PreparationDetail,
  type Trim as WireTrim,
} from '@sutura/domain/preparation';
import { useApplyDraft, saveSteps, saveTrims } from '@/features/preparation/api/preparation';
import { readLocalDraft, useAutosave } from '@/lib/use-autosave';
import {
  addStep,
  deleteStep,
  moveStepEdge,
  nearestKept,
  renameStep,
  reorderStep,
  type Step,
  type StepRefusal,
} from '@/features/preparation/model/steps';
import { clamp, frameRateOf, snapToFrame } from '@/features/preparation/model/timecode';
import {
  addTrim,
  deleteTrim,
  moveTrim,
  resizeTrim,
  trimState,
  type Trim,
  type TrimRefusal,
  type TrimState,
} from '@/features/preparation/model/trims';
import type { RangeChange } from '@/features/preparation/components/preparation-timeline';

interface Snapshot {
  trims: TrimState;
  steps: Step[];
}

/** What the server stores for the phase on screen: times only, no screen keys. */
interface WireDraft {
  trims: WireTrim[];
  steps: DraftStep[];
}

const EPSILON = 1e-6;
const near = (a: number, b: number) => Math.abs(a - b) < EPSILON;

function sameDraft(a: WireDraft, b: WireDraft): boolean {
  return (
    a.trims.length === b.trims.length &&
    a.trims.every((t, i) => near(t.start, b.trims[i]!.start) && near(t.end, b.trims[i]!.end)) &&
    a.steps.length === b.steps.length &&
    a.steps.every((s, i) => {
      const o = b.steps[i]!;
      return s.surgeryStepId === o.surgeryStepId && s.name === o.name && near(s.start, o.start) && near(s.end, o.end);
    })
  );
}

const toWire = (snapshot: Snapshot): WireDraft => ({
  trims: snapshot.trims.trims.map(({ start, end }) => ({ start, end })),
  steps: snapshot.steps.map(({ surgeryStepId, name, start, end }) => ({ surgeryStepId, name: surgeryStepId ? '' : name, start, end })),
});

/** The device copy of an unsaved draft is only good for the same claim and the same phase. */
interface LocalDraft extends WireDraft {
  fencingToken: number | null;
  phase: PreparationDetail['phase'];
}

// Screen keys of trims and steps: unique in the page, never sent.
let keySequence = 0;
const key = (prefix: string) => `${prefix}${++keySequence}`;

export const localDraftKey = (videoId: string) => `sutura.preparation.${videoId}`;

/**
 * The editing state of one phase of the preparation page: trims or steps, with undo, the rules of
 * SPEC §5 and an autosave that survives a lost connection. Mounted again at each phase change.
 */
export function usePreparationEditor(detail: PreparationDetail) {
  const fps = frameRateOf(detail.frameRate);
  const duration = detail.duration;
  const applyDraft = useApplyDraft();
  const fencingToken = useRef(detail.fencingToken ?? 0);
  // The names offered, and those of the draft's own steps: a step an administrator retired since
  // (docs/admin-catalog.md) is no longer offered but keeps naming the step that has it.
  const vocabularyName = useMemo(
    () =>
      new Map([
        ...detail.steps.flatMap((s) => (s.surgeryStepId ? [[s.surgeryStepId, s.name] as const] : [])),
        ...detail.vocabulary.map((v) => [v.id, v.name] as const),
      ]),
    [detail.steps, detail.vocabulary],
  );

  const [initialWire] = useState<WireDraft>(() => ({
    trims: detail.trims,
    steps: detail.steps.map((s) => ({ ...s, name: s.surgeryStepId ? '' : s.name })),
  }));
  const [present, setPresent] = useState<Snapshot>(() => {
    const local = readLocalDraft<LocalDraft>(localDraftKey(detail.id));
    const usable = local && local.fencingToken === detail.fencingToken && local.phase === detail.phase ? local : null;
    const source = usable ?? initialWire;
    return {
      trims: trimState(source.trims.map((t) => ({ key: key('t'), start: t.start, end: t.end }))),
      steps: source.steps.map((s) => ({
        key: key('s'),
        surgeryStepId: s.surgeryStepId,
        name: s.surgeryStepId ? (vocabularyName.get(s.surgeryStepId) ?? s.name) : s.name,
        start: s.start,
        end: s.end,
      })),
    };
  });
  const [past, setPast] = useState<Snapshot[]>([]);
  const dragOrigin = useRef<Snapshot | null>(null);

  const wire = useMemo(() => toWire(present), [present]);
  const autosave = useAutosave<WireDraft>({
    value: wire,
    initial: initialWire,
    same: sameDraft,
    storageKey: localDraftKey(detail.id),
    save: async (draft) => {
      const payload = { id: detail.id, fencingToken: fencingToken.current };
      const saved =
        detail.phase === 'trim' ? await saveTrims({ ...payload, trims: draft.trims }) : await saveSteps({ ...payload, steps: draft.steps });
      fencingToken.current = saved.fencingToken;
      applyDraft(saved);
    },
  });

  /** One undoable change. */
  const commit = useCallback((next: Snapshot) => {
    setPresent((current) => {
      if (next === current) return current;
      setPast((p) => [...p.slice(-99), current]);
      return next;
    });
  }, []);

  const undo = () => {
    const previous = past.at(-1);
    if (!previous) return false;
    setPast((p) => p.slice(0, -1));
    setPresent(previous);
    return true;
  };

  const trimLimits = (viewSpan: number) => ({
    duration,
    fps,
    minSeconds: MIN_TRIM_SECONDS,
    maxTrims: MAX_TRIMS,
    // A new range is a fifth of what the timeline shows: long on the whole video, short when zoomed in.
    defaultSeconds: Math.max(MIN_TRIM_SECONDS, snapToFrame(viewSpan / 5, fps)),
  });

  const newTrim = (at: number, viewSpan: number): { ok: true; key: string } | { ok: false; reason: TrimRefusal } => {
    const result = addTrim(present.trims, at, trimLimits(viewSpan), key('t'));
    if (!result.ok) return result;
    commit({ ...present, trims: result.state });
    return { ok: true, key: result.key };
  };

  const newStep = (at: number): { ok: true; key: string } | { ok: false; reason: StepRefusal } => {
    const stepKey = key('s');
    const result = addStep(
      present.steps,
      at,
      present.trims.trims,
      { fps, maxSteps: MAX_STEPS, minSteps: MIN_STEPS, defaultSeconds: 60 },
      stepKey,
    );
    if (!result.ok) return result;
    commit({ ...present, steps: result.steps });
    return { ok: true, key: stepKey };
  };

  const applyRange = (base: Snapshot, change: RangeChange): Snapshot => {
    if (detail.phase === 'trim') {
      const limits = trimLimits(duration);
      const trims =
        change.edit === 'move'
          ? moveTrim(base.trims, change.key, change.value, limits)
          : resizeTrim(base.trims, change.key, change.edit, change.value, limits);
      return trims === base.trims ? base : { ...base, trims };
    }
    const kept = base.trims.trims;
    if (change.edit === 'move') {
      const step = base.steps.find((s) => s.key === change.key);
      if (!step) return base;
      const length = step.end - step.start;
      const start = nearestKept(kept, clamp(step.start + change.value, 0, duration - length), 'start', fps);
      const end = nearestKept(kept, start + length, 'end', fps);
      if (end <= start) return base;
      return { ...base, steps: base.steps.map((s) => (s.key === change.key ? { ...s, start, end } : s)) };
    }
    return { ...base, steps: moveStepEdge(base.steps, change.key, change.edit, change.value, kept, fps) };
  };

  /** A drag shows each position and makes one undo step at its end; a key makes one at once. */
  const changeRange = (change: RangeChange) => {
    const origin = dragOrigin.current ?? present;
    if (!change.done) {
      dragOrigin.current = origin;
      setPresent(applyRange(origin, change));
      return;
    }
    dragOrigin.current = null;
    const next = applyRange(origin, change);
    if (next === origin) {
      setPresent(origin);
      return;
    }
    setPast((p) => [...p.slice(-99), origin]);
    setPresent(next);
  };

  const removeTrim = (trimKey: string) => commit({ ...present, trims: deleteTrim(present.trims, trimKey) });
  const removeStep = (stepKey: string) => commit({ ...present, steps: deleteStep(present.steps, stepKey) });
  const nameStep = (stepKey: string, name: { surgeryStepId: string | null; name: string }) =>
    commit({ ...present, steps: renameStep(present.steps, stepKey, name) });
  const moveStepInList = (stepKey: string, direction: -1 | 1) =>
    commit({ ...present, steps: reorderStep(present.steps, stepKey, direction) });
  /** I and O: the selected range's edge at the playhead. */
  const setEdgeAt = (rangeKey: string, edge: 'start' | 'end', time: number) =>
    changeRange({ key: rangeKey, edit: edge, value: time, done: true });

  return {
    fps,
    duration,
    trims: present.trims.trims as readonly Trim[],
    steps: present.steps as readonly Step[],
    canUndo: past.length > 0,
    undo,
    newTrim,
    newStep,
    changeRange,
    removeTrim,
    removeStep,
    nameStep,
    moveStepInList,
    setEdgeAt,
    save: autosave.flush,
    discard: autosave.discard,
    saveStatus: autosave.status,
    saveError: autosave.error,
    fencingToken: () => fencingToken.current,
  };
}

export type PreparationEditor = ReturnType<typeof usePreparationEditor>;
