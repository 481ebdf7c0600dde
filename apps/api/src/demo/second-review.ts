import { KPIS, type Kpi } from '@sutura/domain/analysis';

/**
 * The demo history's second reviewer (expert2, docs/double-review.md): a second person, not a copy
 * of the first. He writes his own words — in French, as every expert of the demo does (the demo
 * is a French hospital's: its experts write in their language, whatever the reader's interface)
 * — has his own leanings (stricter on efficiency, kinder on depth perception), differs from the
 * first expert by a level here and there, and on a few cases sees one skill or one step
 * differently by two or three levels: those cases are flagged.
 */

/** Where the second reviewer sees a case differently, by double-reviewed case in the order the history makes them. */
type Difference = { kind: 'kpi'; key: Kpi; gap: 2 | 3 } | { kind: 'step'; position: number; gap: 2 | 3 };
export const SECOND_REVIEW_DIFFERENCES: readonly (Difference | null)[] = [
  { kind: 'kpi', key: 'autonomy', gap: 2 },
  null,
  { kind: 'step', position: 2, gap: 3 },
  { kind: 'kpi', key: 'efficiency', gap: 3 },
  null,
  null,
  { kind: 'kpi', key: 'depthPerception', gap: 2 },
];

/** His leanings, in levels, before his own small variations. */
const LEANING: Record<Kpi, number> = {
  depthPerception: 0.25,
  bimanualDexterity: 0,
  efficiency: -0.35,
  tissueHandling: 0,
  autonomy: 0.1,
};

/** What he writes, by his global level (2 and below, 3, 4, 5). */
const WORDS = [
  {
    assessment: 'Déroulé encore hésitant : les temps morts s’accumulent et la caméra bouge beaucoup entre les temps opératoires.',
    advice: 'Travaillez sur simulateur les changements d’instruments et le recentrage de la caméra, puis revenez à la dissection.',
  },
  {
    assessment: 'Intervention correcte et en progrès. La caméra gagnerait à être plus stable, le champ reste parfois mal centré.',
    advice: 'Avant chaque temps opératoire, annoncez le geste suivant et placez la caméra en conséquence.',
  },
  {
    assessment: 'Geste sûr dans l’ensemble, bonne ergonomie ; quelques hésitations pendant la dissection fine.',
    advice: 'Gardez la main non dominante active pour exposer pendant toute la dissection, sans la laisser au repos.',
  },
  {
    assessment: 'Très belle intervention, fluide et autonome, avec une excellente économie de mouvements.',
    advice: 'Prochaine étape : raccourcir encore la durée opératoire en gardant la même sécurité.',
  },
] as const;

/** His time-coded remarks: two per case, drawn from these. */
const REMARKS = [
  'Caméra un peu trop proche ici : on perd les repères anatomiques.',
  'Bon réflexe de recentrer la caméra avant de disséquer.',
  'Ce changement d’instrument aurait pu être évité.',
  'Exposition correcte, le plan de dissection est bien visible.',
  'Coagulation un peu large à cet endroit : restez au contact du tissu.',
  'Belle économie de mouvements sur ce passage.',
  'La pince gauche pourrait mieux présenter le tissu ici.',
] as const;

const KPI_NAMES: Record<Kpi, string> = {
  depthPerception: 'la perception de la profondeur',
  bimanualDexterity: 'la dextérité bimanuelle',
  efficiency: 'l’efficacité',
  tissueHandling: 'la manipulation des tissus',
  autonomy: 'l’autonomie',
};
const STRICTER: Record<Kpi | 'step', string> = {
  depthPerception: 'plusieurs approches hésitantes avant le contact avec les tissus.',
  bimanualDexterity: 'la main gauche reste souvent passive.',
  efficiency: 'beaucoup de gestes repris sans progression.',
  tissueHandling: 'la traction reste forte par moments.',
  autonomy: 'la progression semble attendre une validation à chaque temps.',
  step: 'ce temps opératoire manque encore de méthode.',
};

const clamp = (v: number, min: number, max: number) => Math.max(min, Math.min(max, v));
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

/** A level `gap` away from `first`, lower when it can be (he is the stricter one), within 1 to 5. */
function apart(first: number, gap: 2 | 3): number {
  if (first - gap >= 1) return first - gap;
  if (first + gap <= 5) return first + gap;
  return first >= 3 ? first - 2 : first + 2;
}

export interface SecondReview {
  kpiRatings: Record<Kpi, number>;
  stepRatings: Record<string, number>;
  globalRating: number;
  assessment: string;
  advice: string;
  comments: { start: number; text: string }[];
}

/**
 * His review of a case the first expert rated so: `order` is the case's place among the
 * double-reviewed ones, `random` a reproducible series of its own (the demo is the same at every
 * first start).
 */
export function secondReview(input: {
  order: number;
  kpiRatings: Record<string, number>;
  /** The steps in their order, with the first expert's rating of each. */
  steps: { id: string; nameFr: string; start: number; rating: number }[];
  globalRating: number;
  random: () => number;
}): SecondReview {
  const { random } = input;
  let difference = SECOND_REVIEW_DIFFERENCES[input.order % SECOND_REVIEW_DIFFERENCES.length] ?? null;
  // His own reading of each item: within a level of the first expert's.
  const own = (first: number, leaning: number) => clamp(first + clamp(Math.round(leaning + (random() - 0.5) * 1.3), -1, 1), 1, 5);
  const kpiRatings = Object.fromEntries(KPIS.map((k) => [k, own(input.kpiRatings[k]!, LEANING[k])])) as Record<Kpi, number>;
  const stepRatings = Object.fromEntries(input.steps.map((s) => [s.id, own(s.rating, 0)]));
  let remark: string | undefined;
  let remarkAt: number | undefined;
  // Three levels apart needs a first rating of 1, 2, 4 or 5: else the nearest item of the same kind that has one.
  const canBeThreeApart = (rating: number) => rating !== 3;
  if (difference?.kind === 'kpi' && difference.gap === 3 && !canBeThreeApart(input.kpiRatings[difference.key]!)) {
    const from = KPIS.indexOf(difference.key);
    const other = [...KPIS.slice(from + 1), ...KPIS.slice(0, from)].find((k) => canBeThreeApart(input.kpiRatings[k]!));
    if (other) difference = { ...difference, key: other };
  }
  if (difference?.kind === 'step' && difference.gap === 3 && !canBeThreeApart(input.steps[difference.position]?.rating ?? 3)) {
    const from = difference.position;
    const order = [...input.steps.keys()].map((i) => (from + i) % input.steps.length);
    const other = order.find((i) => canBeThreeApart(input.steps[i]!.rating));
    if (other !== undefined) difference = { ...difference, position: other };
  }
  if (difference?.kind === 'kpi') {
    kpiRatings[difference.key] = apart(input.kpiRatings[difference.key]!, difference.gap);
    remark =
      kpiRatings[difference.key] < input.kpiRatings[difference.key]!
        ? `Je suis plus réservé sur ${KPI_NAMES[difference.key]} : ${STRICTER[difference.key]}`
        : `Je trouve ${KPI_NAMES[difference.key]} bien maîtrisée sur ce cas.`;
  }
  const step = difference?.kind === 'step' ? input.steps[difference.position] : undefined;
  if (difference?.kind === 'step' && step) {
    stepRatings[step.id] = apart(step.rating, difference.gap);
    remark =
      stepRatings[step.id]! < step.rating
        ? `Je suis plus réservé sur l’étape « ${step.nameFr} » : ${STRICTER.step}`
        : `L’étape « ${step.nameFr} » me paraît bien maîtrisée.`;
    remarkAt = step.start + 8;
  }

  const firstMean = mean(KPIS.map((k) => input.kpiRatings[k]!));
  const drift = mean(KPIS.map((k) => kpiRatings[k])) - firstMean;
  const globalRating = clamp(input.globalRating + (drift <= -0.5 ? -1 : drift >= 0.5 ? 1 : 0), 1, 5);
  const words = WORDS[clamp(globalRating - 2, 0, WORDS.length - 1)]!;

  // Two remarks of his own, on the later steps (the first expert commented the second step).
  const firstRemark = Math.floor(random() * REMARKS.length);
  const secondRemark = (firstRemark + 1 + Math.floor(random() * (REMARKS.length - 1))) % REMARKS.length;
  const later = input.steps.slice(2);
  const comments: { start: number; text: string }[] = [
    { start: (later[0] ?? input.steps[0]!).start + 6 + Math.round(random() * 10), text: REMARKS[firstRemark]! },
    { start: (later[1] ?? input.steps.at(-1)!).start + 4 + Math.round(random() * 10), text: REMARKS[secondRemark]! },
  ];
  if (remark && remarkAt !== undefined) comments.push({ start: remarkAt, text: remark });
  return {
    kpiRatings,
    stepRatings,
    globalRating,
    assessment: remark && remarkAt === undefined ? `${words.assessment} ${remark}` : words.assessment,
    advice: words.advice,
    comments: comments.sort((a, b) => a.start - b.start),
  };
}
