import { createRequire } from 'node:module';
import {
  formatTimecode,
  KPI_DEFINITIONS,
  KPIS,
  RATING_LABELS,
  ratingColor,
  type AnalysisResult,
  type RatingLevel,
} from '@sutura/domain/analysis';
import { DRAWING_COLOR_HEX, DRAWING_OUTLINE, DRAWING_STYLE, type Drawing } from '@sutura/domain/drawing';
import type { Language } from '@sutura/domain/i18n';
import { gapWord, type SelfVsExpertItem } from '@sutura/domain/self-assessment';
import { COLORS } from '@sutura/domain/limits';
import { nasaTlxRawScore, type NasaTlx } from '@sutura/domain/videos';
import type { FramePicture } from './annotated-frames.ts';

const require = createRequire(import.meta.url);
/** Shipped with the package (npm), so that accents print on any machine, fonts installed or not. */
const FONT_REGULAR = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const FONT_BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

const TEXT = {
  fr: {
    title: "Rapport d'analyse",
    subtitle: 'Analyse de vidéo chirurgicale',
    case: 'Le cas',
    surgery: 'Chirurgie',
    organ: 'Organe',
    videoDuration: 'Durée de la vidéo analysée',
    surgeryDuration: 'Durée de l’intervention',
    minutes: 'min',
    patient: 'Patient',
    mainHand: 'Main dominante',
    nasaTlx: 'NASA-TLX (score brut)',
    message: 'Message à l’expert',
    expert: 'Expert',
    date: 'Analyse envoyée le',
    global: 'Note globale',
    kpis: 'Compétences (GOALS)',
    steps: 'Étapes',
    stepHeader: ['Étape', 'Début', 'Fin', 'Durée', 'Note'],
    activeTime: 'Temps actif',
    nonActiveTime: 'Temps non actif',
    assessment: 'Appréciation',
    advice: 'Conseils',
    voice: 'Un conseil vocal de {d} est à écouter dans Sutura.',
    comments: 'Commentaires sur la vidéo',
    frameAt: 'Image à {t}',
    none: 'Aucun',
    notRated: 'non noté',
    ratingsHidden: 'Les notes ne sont pas affichées, selon vos préférences.',
    page: 'Page',
    hands: { left: 'gauche', right: 'droite' },
    sexes: { man: 'homme', woman: 'femme' },
    ages: {
      under_30: 'moins de 30 ans',
      '30_44': '30 à 44 ans',
      '45_59': '45 à 59 ans',
      '60_74': '60 à 74 ans',
      '75_plus': '75 ans et plus',
    },
    bmi: { under_30: 'IMC < 30', '30_40': 'IMC 30 à 40', over_40: 'IMC > 40' },
  },
  en: {
    title: 'Analysis report',
    subtitle: 'Surgical video analysis',
    case: 'The case',
    surgery: 'Surgery',
    organ: 'Organ',
    videoDuration: 'Length of the analysed video',
    surgeryDuration: 'Surgery duration',
    minutes: 'min',
    patient: 'Patient',
    mainHand: 'Main hand',
    nasaTlx: 'NASA-TLX (raw score)',
    message: 'Message to the expert',
    expert: 'Expert',
    date: 'Analysis submitted on',
    global: 'Global rating',
    kpis: 'Skills (GOALS)',
    steps: 'Steps',
    stepHeader: ['Step', 'Start', 'End', 'Length', 'Rating'],
    activeTime: 'Active time',
    nonActiveTime: 'Non-active time',
    assessment: 'Assessment',
    advice: 'Advice',
    voice: 'A voice advice of {d} is waiting for you in Sutura.',
    comments: 'Comments on the video',
    frameAt: 'Frame at {t}',
    none: 'None',
    notRated: 'not rated',
    ratingsHidden: 'Ratings are not shown, as your preferences ask.',
    page: 'Page',
    hands: { left: 'left', right: 'right' },
    sexes: { man: 'man', woman: 'woman' },
    ages: { under_30: 'under 30', '30_44': '30 to 44', '45_59': '45 to 59', '60_74': '60 to 74', '75_plus': '75 and over' },
    bmi: { under_30: 'BMI < 30', '30_40': 'BMI 30 to 40', over_40: 'BMI > 40' },
  },
} as const;

export interface ReportData {
  result: AnalysisResult;
  video: {
    duration: number | null;
    surgeryDuration: number | null;
    ageRange: string | null;
    patientSex: string | null;
    bmi: string | null;
    mainHand: string | null;
    messageToProctor: string | null;
    nasaTlx: NasaTlx | null;
  };
  surgery: string | null;
  organ: string | null;
  /** The frames drawings were made on, by drawing time (see annotated-frames.ts). */
  frames?: ReadonlyMap<number, FramePicture>;
  /** The author's self-assessment against the expert, when they gave one. */
  selfAssessment?: SelfVsExpertItem[] | null;
}

const MARGIN = 50;
const INK = COLORS.textLight;
const MUTED = '#5B6B67';

/**
 * The analysis as a PDF for the surgeon's portfolio, in the reader's language, drawn by the
 * server (pdfkit, vector graphics, the DejaVu font embedded). Ratings appear only when the
 * result carries them: the learner's showRatings preference was applied before.
 */
export async function renderAnalysisReport(data: ReportData, lang: Language): Promise<Buffer> {
  // pdfkit and its fonts' code (11 MB, 0.1 s) load with the first report, not with the server.
  const { default: PDFDocument } = await import('pdfkit');
  const t = TEXT[lang];
  const { result, video } = data;
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: { Title: `${t.title} — ${data.surgery ?? ''}`.trim(), Author: 'Sutura', Subject: t.subtitle },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('regular', FONT_REGULAR);
  doc.registerFont('bold', FONT_BOLD);
  const width = doc.page.width - 2 * MARGIN;
  const date = new Intl.DateTimeFormat(lang === 'fr' ? 'fr-FR' : 'en-GB', { dateStyle: 'long' }).format(new Date(result.submittedAt));

  const heading = (text: string) => {
    ensureSpace(doc, 60);
    doc.moveDown(0.8).font('bold').fontSize(14).fillColor(COLORS.primary).text(text, MARGIN).moveDown(0.3);
    doc.font('regular').fontSize(10).fillColor(INK);
  };
  const field = (label: string, value: string) => {
    doc
      .font('bold')
      .fontSize(10)
      .fillColor(INK)
      .text(`${label}${lang === 'fr' ? ' : ' : ': '}`, MARGIN, undefined, { continued: true });
    doc.font('regular').text(value);
  };
  const ratingText = (level: RatingLevel | null) => (level ? `${level}/5 — ${RATING_LABELS[level][lang]}` : t.notRated);

  // Title block
  doc.rect(0, 0, doc.page.width, 8).fill(COLORS.primary);
  doc.font('bold').fontSize(22).fillColor(INK).text(t.title, MARGIN, MARGIN);
  doc
    .font('regular')
    .fontSize(12)
    .fillColor(MUTED)
    .text(data.surgery ? `${data.surgery}${data.organ ? ` — ${data.organ}` : ''}` : t.subtitle);
  doc.moveDown(0.5).fontSize(10).fillColor(INK);
  field(t.expert, `${result.expert.firstName} ${result.expert.lastName}`.trim());
  field(t.date, date);
  if (!result.ratingsShown) doc.moveDown(0.3).fillColor(MUTED).text(t.ratingsHidden).fillColor(INK);

  heading(t.case);
  if (data.surgery) field(t.surgery, data.surgery);
  if (data.organ) field(t.organ, data.organ);
  if (video.duration) field(t.videoDuration, formatTimecode(video.duration));
  if (video.surgeryDuration) field(t.surgeryDuration, `${video.surgeryDuration} ${t.minutes}`);
  const patient = [
    video.patientSex ? t.sexes[video.patientSex as keyof typeof t.sexes] : null,
    video.ageRange ? t.ages[video.ageRange as keyof typeof t.ages] : null,
    video.bmi ? t.bmi[video.bmi as keyof typeof t.bmi] : null,
  ].filter(Boolean);
  if (patient.length) field(t.patient, patient.join(', '));
  if (video.mainHand) field(t.mainHand, t.hands[video.mainHand as keyof typeof t.hands] ?? video.mainHand);
  if (video.nasaTlx) field(t.nasaTlx, `${nasaTlxRawScore(video.nasaTlx)} / 100`.replace('.', lang === 'fr' ? ',' : '.'));
  if (video.messageToProctor) field(t.message, video.messageToProctor);

  if (result.ratingsShown) {
    heading(t.global);
    ratingLine(doc, result.globalRating, ratingText(result.globalRating));
  }

  heading(t.kpis);
  if (result.ratingsShown && result.kpis.some((k) => k.rating)) {
    ensureSpace(doc, 250);
    const top = doc.y;
    radarChart(
      doc,
      { x: MARGIN + width / 2, y: top + 115, r: 90 },
      result.kpis.map((k) => ({ label: KPI_DEFINITIONS[k.kpi].name[lang], value: k.rating ?? 0 })),
    );
    doc.y = top + 245;
  }
  for (const kpi of KPIS) {
    const rating = result.kpis.find((k) => k.kpi === kpi)?.rating ?? null;
    const def = KPI_DEFINITIONS[kpi];
    ensureSpace(doc, 50);
    doc.font('bold').fontSize(10).fillColor(INK).text(def.name[lang], MARGIN);
    if (result.ratingsShown) {
      ratingLine(doc, rating, ratingText(rating));
      if (rating)
        doc
          .font('regular')
          .fontSize(9)
          .fillColor(MUTED)
          .text(def.levels[rating][lang], MARGIN + 18);
    } else {
      doc.font('regular').fontSize(9).fillColor(MUTED).text(def.summary[lang], MARGIN);
    }
    doc.moveDown(0.3);
  }

  if (data.selfAssessment) {
    heading(SELF_TEXT[lang].title);
    selfAssessmentSection(doc, data.selfAssessment, lang, width);
  }

  heading(t.steps);
  const columns = result.ratingsShown ? [0.46, 0.12, 0.12, 0.12, 0.18] : [0.58, 0.14, 0.14, 0.14];
  const header: string[] = result.ratingsShown ? [...t.stepHeader] : t.stepHeader.slice(0, 4);
  tableRow(doc, header, columns, width, true);
  for (const step of result.steps) {
    const cells = [step.name, formatTimecode(step.start), formatTimecode(step.end), formatTimecode(step.duration)];
    if (result.ratingsShown) cells.push(step.rating ? `${step.rating}/5` : '–');
    tableRow(doc, cells, columns, width, false, result.ratingsShown ? step.rating : null);
  }
  doc.moveDown(0.5);
  field(t.activeTime, formatTimecode(result.activeTime));
  field(t.nonActiveTime, formatTimecode(result.nonActiveTime));

  if (result.assessment.trim()) {
    heading(t.assessment);
    doc.text(result.assessment, MARGIN, undefined, { width });
  }
  heading(t.advice);
  doc.text(result.advice.trim() || t.none, MARGIN, undefined, { width });
  if (result.voice)
    doc
      .moveDown(0.3)
      .fillColor(MUTED)
      .text(t.voice.replace('{d}', formatTimecode(result.voice.duration)))
      .fillColor(INK);

  heading(t.comments);
  if (!result.comments.length) doc.text(t.none);
  for (const c of result.comments) {
    ensureSpace(doc, 30);
    const at = c.end != null ? `${formatTimecode(c.start)}–${formatTimecode(c.end)}` : formatTimecode(c.start);
    doc.font('bold').fillColor(COLORS.secondary).text(at, MARGIN, undefined, { continued: true });
    doc.font('regular').fillColor(INK).text(`  ${c.text}`, { width });
    const frame = c.drawing ? data.frames?.get(c.drawing.time) : undefined;
    if (c.drawing && frame) annotatedFrame(doc, frame, c.drawing, t.frameAt.replace('{t}', formatTimecode(c.drawing.time)));
  }

  reviewsSection(doc, result, lang, width);

  // Footer on every page: the case, the expert, the page number.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const y = doc.page.height - MARGIN + 15;
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('regular')
      .fontSize(8)
      .fillColor(MUTED)
      .text(`Sutura — ${t.title} — ${date} — ${t.page} ${i + 1}/${range.count}`, MARGIN, y, { width, align: 'center', lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return done;
}

const REVIEW_TEXT = {
  fr: {
    heading: 'Double analyse',
    intro: 'Ce cas a été analysé indépendamment par {n} experts : leurs notes côte à côte et leur moyenne.',
    item: 'Critère',
    mean: 'Moyenne',
    global: 'Note globale',
    disagreement: 'Les experts diffèrent de 2 niveaux ou plus sur : {items}.',
    agreement: 'Les experts ne diffèrent nulle part de 2 niveaux ou plus.',
    pending: 'Un autre expert analyse ce cas : ce rapport sera mis à jour à son arrivée.',
    advice: 'Conseils de {expert}',
    comments: 'Commentaires de {expert}',
  },
  en: {
    heading: 'Double review',
    intro: 'This case was reviewed independently by {n} experts: their ratings side by side and their mean.',
    item: 'Item',
    mean: 'Mean',
    global: 'Global rating',
    disagreement: 'The experts differ by 2 levels or more on: {items}.',
    agreement: 'The experts nowhere differ by 2 levels or more.',
    pending: 'Another expert is reviewing this case: this report will be updated when the review arrives.',
    advice: 'Advice of {expert}',
    comments: 'Comments of {expert}',
  },
} as const;

/**
 * The further reviews of a case reviewed twice or more (docs/double-review.md): each expert's
 * ratings side by side per KPI and step with their mean, the disagreement, and the advice and
 * comments of the reviews after the first, each signed. Nothing for a case reviewed once.
 */
function reviewsSection(doc: PDFKit.PDFDocument, result: AnalysisResult, lang: Language, width: number) {
  const t = REVIEW_TEXT[lang];
  if (result.furtherReviewPending) {
    doc.moveDown(0.8).font('regular').fontSize(10).fillColor(MUTED).text(t.pending, MARGIN, undefined, { width }).fillColor(INK);
  }
  if (result.reviews.length < 2) return;
  const name = (r: AnalysisResult['reviews'][number]) => `${r.expert.firstName} ${r.expert.lastName}`.trim();
  doc.moveDown(1).font('bold').fontSize(14).fillColor(COLORS.primary).text(t.heading, MARGIN).moveDown(0.3);
  doc
    .font('regular')
    .fontSize(10)
    .fillColor(INK)
    .text(t.intro.replace('{n}', String(result.reviews.length)), MARGIN, undefined, { width });
  doc.moveDown(0.4);
  const n = result.reviews.length;
  const first = 0.34;
  const columns = [first, ...Array.from({ length: n + 1 }, () => (1 - first) / (n + 1))];
  if (result.ratingsShown) {
    tableRow(doc, [t.item, ...result.reviews.map(name), t.mean], columns, width, true);
    const cell = (v: number | null) => (v === null ? '–' : `${v}/5`);
    tableRow(doc, [t.global, ...result.reviews.map((r) => cell(r.globalRating)), cell(result.mean.globalRating)], columns, width, false);
    KPIS.forEach((kpi, i) => {
      const values = result.reviews.map((r) => cell(r.kpis[i]?.rating ?? null));
      tableRow(doc, [KPI_DEFINITIONS[kpi].name[lang], ...values, cell(result.mean.kpis[i]?.rating ?? null)], columns, width, false);
    });
    result.steps.forEach((step, i) => {
      const values = result.reviews.map((r) => cell(r.steps[i]?.rating ?? null));
      tableRow(doc, [step.name, ...values, cell(result.mean.steps[i]?.rating ?? null)], columns, width, false);
    });
    doc.moveDown(0.5);
  }
  const items = result.disagreement?.items ?? [];
  doc
    .font('regular')
    .fontSize(10)
    .fillColor(items.length ? COLORS.secondary : INK)
    .text(items.length ? t.disagreement.replace('{items}', items.map((i) => i.name).join(', ')) : t.agreement, MARGIN, undefined, { width })
    .fillColor(INK);
  for (const review of result.reviews.slice(1)) {
    ensureSpace(doc, 60);
    doc
      .moveDown(0.6)
      .font('bold')
      .fontSize(11)
      .text(t.advice.replace('{expert}', name(review)), MARGIN);
    doc
      .font('regular')
      .fontSize(10)
      .text(review.advice.trim() || '–', MARGIN, undefined, { width });
    if (review.comments.length) {
      doc
        .moveDown(0.3)
        .font('bold')
        .fontSize(11)
        .text(t.comments.replace('{expert}', name(review)), MARGIN);
      for (const c of review.comments) {
        ensureSpace(doc, 30);
        const at = c.end != null ? `${formatTimecode(c.start)}–${formatTimecode(c.end)}` : formatTimecode(c.start);
        doc.font('bold').fontSize(10).fillColor(COLORS.secondary).text(at, MARGIN, undefined, { continued: true });
        doc.font('regular').fillColor(INK).text(`  ${c.text}`, { width });
      }
    }
  }
}

const SELF_TEXT = {
  fr: {
    title: 'Auto-évaluation',
    header: ['Compétence', 'Vous', 'Expert', 'Écart'],
    global: 'Note globale',
    gap: { agree: 'd’accord', higher: '{g} plus haut', lower: '{g} plus bas', none: '–' },
  },
  en: {
    title: 'Self-assessment',
    header: ['Skill', 'You', 'Expert', 'Gap'],
    global: 'Overall rating',
    gap: { agree: 'agree', higher: '{g} higher', lower: '{g} lower', none: '–' },
  },
} as const;

/** The learner's self-assessment against the expert, a row per KPI (and the global rating). */
function selfAssessmentSection(doc: PDFKit.PDFDocument, items: SelfVsExpertItem[], lang: Language, width: number) {
  const t = SELF_TEXT[lang];
  const number = (v: number | null) =>
    v === null ? '–' : v.toLocaleString(lang === 'fr' ? 'fr-FR' : 'en-GB', { maximumFractionDigits: 2 });
  const columns = [0.46, 0.14, 0.14, 0.26];
  tableRow(doc, [...t.header], columns, width, true);
  for (const item of items) {
    const word = gapWord(item.gap);
    const gap = word === null ? t.gap.none : t.gap[word].replace('{g}', number(item.gap === null ? null : Math.abs(item.gap)));
    const name = item.kpi === 'global' ? t.global : KPI_DEFINITIONS[item.kpi].name[lang];
    tableRow(doc, [name, number(item.self), number(item.expert), gap], columns, width, false);
  }
}

function ensureSpace(doc: PDFKit.PDFDocument, height: number) {
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
}

/** A colour swatch of the level, then its text. */
function ratingLine(doc: PDFKit.PDFDocument, level: RatingLevel | null, text: string) {
  const y = doc.y;
  doc.roundedRect(MARGIN, y + 1, 12, 10, 2).fill(level ? ratingColor(level) : '#D0D5D4');
  doc
    .font('regular')
    .fontSize(10)
    .fillColor(INK)
    .text(text, MARGIN + 18, y);
}

function tableRow(
  doc: PDFKit.PDFDocument,
  cells: string[],
  columns: number[],
  width: number,
  header: boolean,
  level: RatingLevel | null = null,
) {
  ensureSpace(doc, 20);
  const y = doc.y;
  doc.font(header ? 'bold' : 'regular').fontSize(9);
  const heights = cells.map((cell, i) => doc.heightOfString(cell, { width: columns[i]! * width - 6 }));
  const h = Math.max(...heights) + 6;
  if (header) doc.rect(MARGIN, y, width, h).fill('#E8F8F4');
  let x = MARGIN;
  cells.forEach((cell, i) => {
    const w = columns[i]! * width;
    if (!header && level && i === cells.length - 1) doc.roundedRect(x + 2, y + 2, w - 4, h - 4, 3).fill(ratingColor(level));
    // White reads on the red, orange and dark green levels; the text colour on the light ones.
    const onDark = !header && level !== null && i === cells.length - 1 && (level <= 2 || level === 5);
    doc.fillColor(onDark ? '#FFFFFF' : INK).text(cell, x + 3, y + 3, { width: w - 6, align: i === 0 ? 'left' : 'center' });
    x += w;
  });
  doc
    .moveTo(MARGIN, y + h)
    .lineTo(MARGIN + width, y + h)
    .lineWidth(0.5)
    .strokeColor('#D0D5D4')
    .stroke();
  doc.x = MARGIN;
  doc.y = y + h;
}

/**
 * The five KPIs on a polar (radar) chart: a pentagon per level as the grid, one axis per KPI,
 * the ratings as a filled polygon. Vector paths only, so it prints sharp at any size.
 */
function radarChart(doc: PDFKit.PDFDocument, at: { x: number; y: number; r: number }, axes: { label: string; value: number }[]) {
  const n = axes.length;
  const point = (i: number, radius: number): [number, number] => {
    const angle = -Math.PI / 2 + (2 * Math.PI * i) / n;
    return [at.x + radius * Math.cos(angle), at.y + radius * Math.sin(angle)];
  };
  doc.save();
  for (let level = 1; level <= 5; level++) {
    const ring = axes.map((_, i) => point(i, (at.r * level) / 5));
    doc
      .polygon(...ring)
      .lineWidth(0.5)
      .strokeColor(level === 5 ? '#9AA5A2' : '#D0D5D4')
      .stroke();
  }
  axes.forEach((_, i) => {
    const [x, y] = point(i, at.r);
    doc.moveTo(at.x, at.y).lineTo(x, y).lineWidth(0.5).strokeColor('#D0D5D4').stroke();
  });
  const shape = axes.map((a, i) => point(i, (at.r * Math.max(0, Math.min(5, a.value))) / 5));
  doc
    .polygon(...shape)
    .lineWidth(1.5)
    .fillOpacity(0.3)
    .fillAndStroke(COLORS.primary, COLORS.primary);
  doc.fillOpacity(1);
  axes.forEach((a, i) => {
    const [x, y] = point(i, (at.r * Math.max(0, a.value)) / 5);
    if (a.value > 0) doc.circle(x, y, 3).fill(ratingColor(a.value as RatingLevel));
    const [lx, ly] = point(i, at.r + 14);
    const labelWidth = 120;
    const align = Math.abs(lx - at.x) < 5 ? 'center' : lx < at.x ? 'right' : 'left';
    const left = align === 'center' ? lx - labelWidth / 2 : align === 'right' ? lx - labelWidth : lx;
    doc
      .font('regular')
      .fontSize(8)
      .fillColor(INK)
      .text(`${a.label}${a.value ? ` (${a.value})` : ''}`, left, ly - 5, { width: labelWidth, align, lineBreak: false });
  });
  doc.restore();
}

/**
 * The frame a drawing was made on, with the drawing over it as vector paths (sharp at any zoom);
 * the same sizes as the web overlay, as fractions of the picture's height.
 */
function annotatedFrame(doc: PDFKit.PDFDocument, frame: FramePicture, drawing: Drawing, caption: string) {
  const w = Math.min(360, doc.page.width - 2 * MARGIN);
  const h = (frame.height / frame.width) * w;
  ensureSpace(doc, h + 30);
  const x0 = MARGIN;
  const y0 = doc.y + 4;
  doc.image(frame.jpeg, x0, y0, { width: w, height: h });
  const X = (x: number) => x0 + x * w;
  const Y = (y: number) => y0 + y * h;
  const stroke = DRAWING_STYLE.stroke * h;
  const outline = stroke + 2 * DRAWING_STYLE.outline * h;
  doc.save();
  doc.rect(x0, y0, w, h).clip();
  doc.lineCap('round').lineJoin('round');
  for (const shape of drawing.shapes) {
    const color = DRAWING_COLOR_HEX[shape.color];
    const path = () => {
      switch (shape.kind) {
        case 'freehand':
          doc.moveTo(X(shape.points[0]![0]), Y(shape.points[0]![1]));
          for (const [x, y] of shape.points.slice(1)) doc.lineTo(X(x), Y(y));
          break;
        case 'line':
          doc.moveTo(X(shape.from[0]), Y(shape.from[1])).lineTo(X(shape.to[0]), Y(shape.to[1]));
          break;
        case 'arrow': {
          const [ax, ay] = [X(shape.from[0]), Y(shape.from[1])];
          const [bx, by] = [X(shape.to[0]), Y(shape.to[1])];
          const angle = Math.atan2(by - ay, bx - ax);
          const head = DRAWING_STYLE.arrowHead * h;
          doc.moveTo(ax, ay).lineTo(bx, by);
          for (const side of [-1, 1]) {
            doc.moveTo(bx, by).lineTo(bx - head * Math.cos(angle + side * 0.5), by - head * Math.sin(angle + side * 0.5));
          }
          break;
        }
        case 'ellipse':
          doc.ellipse(X(shape.center[0]), Y(shape.center[1]), shape.rx * w, shape.ry * h);
          break;
        case 'text':
          break;
      }
    };
    if (shape.kind === 'text') {
      const size = DRAWING_STYLE.text * h;
      doc.font('bold').fontSize(size);
      doc
        .lineWidth(DRAWING_STYLE.outline * h * 2)
        .strokeColor(DRAWING_OUTLINE)
        .fillColor(color)
        .text(shape.text, X(shape.at[0]), Y(shape.at[1]) - size, { lineBreak: false, stroke: true, fill: true });
      continue;
    }
    path();
    doc.lineWidth(outline).strokeColor(DRAWING_OUTLINE).stroke();
    path();
    doc.lineWidth(stroke).strokeColor(color).stroke();
  }
  doc.restore();
  doc
    .font('regular')
    .fontSize(8)
    .fillColor(MUTED)
    .text(caption, MARGIN, y0 + h + 3);
  doc.fontSize(10).fillColor(INK).moveDown(0.5);
}
