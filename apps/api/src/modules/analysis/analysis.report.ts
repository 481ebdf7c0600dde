import { createRequire } from 'node:module';
import {
  formatTimecode,
  KPI_DEFINITIONS,
  KPIS,
  RATING_LABELS,
  type AnalysisComment,
  type AnalysisResult,
  type RatingLevel,
  type ResultExpert,
} from '@sutura/domain/analysis';
import type { Language } from '@sutura/domain/i18n';
import { gapWord, type SelfVsExpertItem } from '@sutura/domain/self-assessment';
import { COLORS } from '@sutura/domain/limits';
import { nasaTlxRawScore, type NasaTlx } from '@sutura/domain/videos';
import type { FramePicture } from './annotated-frames.ts';
import {
  annotatedFrame,
  ensureSpace,
  INK,
  MARGIN,
  MUTED,
  radarChart,
  ratingLine,
  table,
  tableHeight,
  type TableRow,
} from './report-pdf.ts';
import { REPORT_TEXT, REVIEWS_TEXT, SELF_TEXT } from './report-text.ts';

const require = createRequire(import.meta.url);
/** Shipped with the package (npm), so that accents print on any machine, fonts installed or not. */
const FONT_REGULAR = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const FONT_BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

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
  /** The author's self-assessment against the expert (the mean of the reviews), when they gave one. */
  selfAssessment?: SelfVsExpertItem[] | null;
}

type Review = AnalysisResult['reviews'][number];

/** One report being written: the document, its reader's language and what it shows. */
interface Report {
  doc: PDFKit.PDFDocument;
  lang: Language;
  t: (typeof REPORT_TEXT)[Language];
  /** The width of the text between the margins. */
  width: number;
  data: ReportData;
}

/**
 * The analysis as a PDF for the surgeon's portfolio, in the reader's language, drawn by the
 * server (pdfkit, vector graphics, the DejaVu font embedded). Ratings appear only when the
 * result carries them: the learner's showRatings preference was applied before. A case reviewed
 * by several experts opens with their result (each expert named, the mean, where they disagree),
 * then gives each review in turn (docs/double-review.md).
 */
export async function renderAnalysisReport(data: ReportData, lang: Language): Promise<Buffer> {
  // pdfkit and its fonts' code (11 MB, 0.1 s) load with the first report, not with the server.
  const { default: PDFDocument } = await import('pdfkit');
  const t = REPORT_TEXT[lang];
  const { result } = data;
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
  const report: Report = { doc, lang, t, width: doc.page.width - 2 * MARGIN, data };

  // Title block
  doc.rect(0, 0, doc.page.width, 8).fill(COLORS.primary);
  doc.font('bold').fontSize(22).fillColor(INK).text(t.title, MARGIN, MARGIN);
  doc
    .font('regular')
    .fontSize(12)
    .fillColor(MUTED)
    .text(data.surgery ? `${data.surgery}${data.organ ? ` — ${data.organ}` : ''}` : t.subtitle);
  doc.moveDown(0.5).fontSize(10).fillColor(INK);

  const multi = result.reviews.length > 1;
  if (multi) multiReviewReport(report);
  else singleReviewReport(report);

  // Footer on every page: the case, the date of its result, the page number.
  const latest = multi ? result.reviews.map((r) => r.submittedAt).reduce((a, b) => (a > b ? a : b)) : result.submittedAt;
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
      .text(`Sutura — ${t.title} — ${longDate(latest, lang)} — ${t.page} ${i + 1}/${range.count}`, MARGIN, y, {
        width: report.width,
        align: 'center',
        lineBreak: false,
      });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return done;
}

// ---- A case reviewed once (and, while a second review is under way, its first)

function singleReviewReport(report: Report) {
  const { doc, t, data } = report;
  const { result } = data;
  field(report, t.expert, expertName(result.expert));
  field(report, t.date, longDate(result.submittedAt, report.lang));
  if (!result.ratingsShown) note(report, t.ratingsHidden);

  caseSection(report);

  if (result.ratingsShown) {
    heading(report, t.global);
    ratingLine(doc, result.globalRating, ratingText(report, result.globalRating));
  }

  const withRadar = result.ratingsShown && result.kpis.some((k) => k.rating);
  heading(report, t.kpis, withRadar ? RADAR_HEIGHT : undefined);
  if (withRadar)
    radar(
      report,
      result.kpis.map((k) => k.rating ?? 0),
    );
  kpiList(report, result.kpis);

  if (data.selfAssessment)
    headedTable(report, heading, SELF_TEXT[report.lang].title, selfAssessmentTable(report, data.selfAssessment, false));

  headedTable(report, heading, t.steps, {
    columns: result.ratingsShown ? [0.46, 0.12, 0.12, 0.12, 0.18] : [0.58, 0.14, 0.14, 0.14],
    header: result.ratingsShown ? [...t.stepHeader] : t.stepHeader.slice(0, 4),
    rows: result.steps.map((step) => ({
      cells: [...stepTimes(step), ...(result.ratingsShown ? [step.rating ? `${step.rating}/5` : '–'] : [])],
      levels: [null, null, null, null, step.rating],
    })),
  });
  activeTimes(report);

  adviceSection(report, result);
  heading(report, t.comments);
  commentList(report, result.comments);

  if (result.furtherReviewPending) {
    doc.moveDown(0.8);
    note(report, REVIEWS_TEXT[report.lang].pending);
  }
}

// ---- A case reviewed by several experts

/**
 * Their result first — every expert named, the mean global rating, where they disagree, the
 * radar of the mean and each KPI side by side, the self-assessment against the mean, the steps —
 * then the case, then each review in turn.
 */
function multiReviewReport(report: Report) {
  const { doc, t, lang, data } = report;
  const { result } = data;
  const r = REVIEWS_TEXT[lang];

  doc
    .font('bold')
    .fontSize(10)
    .fillColor(INK)
    .text(`${r.experts}${lang === 'fr' ? ' :' : ':'}`, MARGIN);
  for (const review of result.reviews) {
    doc
      .font('bold')
      .fontSize(10)
      .fillColor(INK)
      .text(`${expertName(review.expert)}`, MARGIN + 12, undefined, { continued: true });
    doc
      .font('regular')
      .fillColor(MUTED)
      .text(
        `${review.expert.specialty ? `, ${review.expert.specialty.name}` : ''} — ${r.submittedOn.replace('{date}', longDate(review.submittedAt, lang))}`,
      );
  }
  doc.x = MARGIN;
  doc.fillColor(INK);
  if (!result.ratingsShown) note(report, t.ratingsHidden);
  if (result.furtherReviewPending) note(report, r.pending);

  heading(report, r.heading);
  const lead = result.ratingsShown ? r.lead : r.leadHidden;
  doc.text(lead.replace('{n}', String(result.reviews.length)), MARGIN, undefined, { width: report.width });
  if (result.ratingsShown && result.mean.globalRating !== null) {
    doc.moveDown(0.6);
    const y = doc.y;
    doc
      .font('bold')
      .fontSize(11)
      .fillColor(INK)
      .text(r.globalMean, MARGIN, y + 3);
    doc
      .font('bold')
      .fontSize(16)
      .text(meanText(report, result.mean.globalRating), MARGIN + 260, y, { width: 80 });
    const each = result.reviews.map((review) => `${expertName(review.expert)} ${review.globalRating ? `${review.globalRating}/5` : '–'}`);
    doc.font('regular').fontSize(9).fillColor(MUTED).text(each.join(' · '), MARGIN, undefined, { width: report.width });
    doc.fontSize(10).fillColor(INK);
  }
  disagreementBlock(report);

  const names = result.reviews.map((review) => expertName(review.expert));
  const compare = [0.34, ...Array.from({ length: names.length + 1 }, () => 0.66 / (names.length + 1))];
  const withRadar = result.ratingsShown && result.mean.kpis.some((k) => k.rating !== null);
  heading(report, t.kpis, withRadar ? RADAR_HEIGHT : undefined);
  if (result.ratingsShown) {
    if (withRadar)
      radar(
        report,
        result.mean.kpis.map((k) => k.rating ?? 0),
      );
    table(
      doc,
      compare,
      report.width,
      [r.skill, ...names, r.mean],
      KPIS.map((kpi, i) =>
        ratingsRow(
          report,
          KPI_DEFINITIONS[kpi].name[lang],
          result.reviews.map((rv) => rv.kpis[i]?.rating ?? null),
          result.mean.kpis[i]?.rating ?? null,
        ),
      ),
    );
  } else {
    kpiList(report, result.kpis);
  }

  if (data.selfAssessment) headedTable(report, heading, SELF_TEXT[lang].title, selfAssessmentTable(report, data.selfAssessment, true));

  const times = [0.25, 0.09, 0.09, 0.09];
  const rest = 1 - times.reduce((a, b) => a + b, 0);
  headedTable(
    report,
    heading,
    t.steps,
    result.ratingsShown
      ? {
          columns: [...times, ...Array.from({ length: names.length + 1 }, () => rest / (names.length + 1))],
          header: [...t.stepHeader.slice(0, 4), ...names, r.mean],
          rows: result.steps.map((step, i) => {
            const ratings = result.reviews.map((rv) => rv.steps[i]?.rating ?? null);
            const row = ratingsRow(report, '', ratings, result.mean.steps[i]?.rating ?? null);
            return {
              cells: [...stepTimes(step), ...row.cells.slice(1)],
              levels: [null, null, null, ...(row.levels ?? [])],
              bold: [names.length + 4],
            };
          }),
        }
      : {
          columns: [0.58, 0.14, 0.14, 0.14],
          header: t.stepHeader.slice(0, 4),
          rows: result.steps.map((step) => ({ cells: stepTimes(step) })),
        },
  );
  activeTimes(report);

  caseSection(report);

  for (const review of result.reviews) reviewSection(report, review);
}

/** Where the experts differ by 2 levels or more, kept in one block under their result. */
function disagreementBlock(report: Report) {
  const { doc, lang, width, data } = report;
  const r = REVIEWS_TEXT[lang];
  const items = data.result.disagreement?.items ?? [];
  const lines = items.length
    ? [r.disagreement.replace('{items}', items.map((i) => i.name).join(', ')), r.disagreementExplain]
    : [r.agreement];
  doc.font('regular').fontSize(10);
  const height = lines.reduce((h, line) => h + doc.heightOfString(line, { width: width - 16 }) + 4, 16);
  doc.moveDown(0.6);
  ensureSpace(doc, height);
  const top = doc.y;
  if (items.length) doc.rect(MARGIN, top, 3, height - 8).fill(COLORS.secondary);
  lines.forEach((line, i) => {
    doc
      .font(i === 0 && items.length ? 'bold' : 'regular')
      .fontSize(10)
      .fillColor(i === 0 && items.length ? COLORS.secondary : INK)
      .text(line, MARGIN + (items.length ? 12 : 0), i === 0 ? top : undefined, { width: width - 16 });
    doc.moveDown(0.2);
  });
  doc.x = MARGIN;
  doc.fillColor(INK);
}

/** One expert's review: their ratings, steps, assessment, advice and comments. */
function reviewSection(report: Report, review: Review) {
  const { doc, t, lang, data } = report;
  const { result } = data;
  const r = REVIEWS_TEXT[lang];
  // A review opens on a new page unless its name, global rating and KPIs fit on this one.
  ensureSpace(doc, 300);
  if (doc.y > MARGIN + 1) {
    doc.moveDown(1);
    doc
      .moveTo(MARGIN, doc.y)
      .lineTo(MARGIN + report.width, doc.y)
      .lineWidth(1)
      .strokeColor(COLORS.primary)
      .stroke();
    doc.moveDown(0.8);
  }
  doc
    .font('bold')
    .fontSize(16)
    .fillColor(COLORS.primary)
    .text(r.reviewBy.replace('{expert}', expertName(review.expert)), MARGIN);
  doc
    .font('regular')
    .fontSize(10)
    .fillColor(MUTED)
    .text(
      [review.expert.specialty?.name, `${t.date} ${longDate(review.submittedAt, lang)}`].filter(Boolean).join(' — '),
      MARGIN,
      undefined,
      { width: report.width },
    );
  doc.fillColor(INK);
  if (result.ratingsShown) {
    subheading(report, t.global);
    ratingLine(doc, review.globalRating, ratingText(report, review.globalRating));
    subheading(report, t.kpis);
    kpiList(report, review.kpis);
    headedTable(report, subheading, r.stepRatings, {
      columns: [0.58, 0.14, 0.28],
      header: [t.stepHeader[0], t.stepHeader[3], t.stepHeader[4]],
      rows: result.steps.map((step, i) => {
        const rating = review.steps[i]?.rating ?? null;
        return { cells: [step.name, formatTimecode(step.duration), rating ? `${rating}/5` : '–'], levels: [null, null, rating] };
      }),
    });
  }
  adviceSection(report, review, subheading);
  subheading(report, t.comments);
  commentList(report, review.comments);
}

/** A row of each expert's rating (on its level's colour) and their mean (in bold, no colour: it is no level). */
function ratingsRow(report: Report, name: string, ratings: (RatingLevel | null)[], mean: number | null): TableRow {
  return {
    cells: [name, ...ratings.map((v) => (v ? `${v}/5` : '–')), meanText(report, mean)],
    levels: [null, ...ratings, null],
    bold: [ratings.length + 1],
  };
}

// ---- Sections both reports share

function caseSection(report: Report) {
  const { t, data } = report;
  const { video } = data;
  heading(report, t.case);
  if (data.surgery) field(report, t.surgery, data.surgery);
  if (data.organ) field(report, t.organ, data.organ);
  if (video.duration) field(report, t.videoDuration, formatTimecode(video.duration));
  if (video.surgeryDuration) field(report, t.surgeryDuration, `${video.surgeryDuration} ${t.minutes}`);
  const patient = [
    video.patientSex ? t.sexes[video.patientSex as keyof typeof t.sexes] : null,
    video.ageRange ? t.ages[video.ageRange as keyof typeof t.ages] : null,
    video.bmi ? t.bmi[video.bmi as keyof typeof t.bmi] : null,
  ].filter(Boolean);
  if (patient.length) field(report, t.patient, patient.join(', '));
  if (video.mainHand) field(report, t.mainHand, t.hands[video.mainHand as keyof typeof t.hands] ?? video.mainHand);
  if (video.nasaTlx) field(report, t.nasaTlx, `${nasaTlxRawScore(video.nasaTlx)} / 100`.replace('.', report.lang === 'fr' ? ',' : '.'));
  if (video.messageToProctor) field(report, t.message, video.messageToProctor);
}

interface TableSpec {
  columns: number[];
  header: string[];
  rows: TableRow[];
}

/** A table under its heading, the heading kept on the table's page. */
function headedTable(report: Report, title: (report: Report, text: string, keep: number) => void, text: string, spec: TableSpec) {
  title(report, text, tableHeight(report.doc, spec.columns, report.width, spec.header, spec.rows));
  table(report.doc, spec.columns, report.width, spec.header, spec.rows);
}

/** The height of the radar and its labels. */
const RADAR_HEIGHT = 250;

/** The radar of five KPI values (levels, or means of levels), kept whole on one page. */
function radar(report: Report, values: number[]) {
  const { doc, lang } = report;
  ensureSpace(doc, RADAR_HEIGHT);
  const top = doc.y;
  radarChart(
    doc,
    { x: MARGIN + report.width / 2, y: top + 115, r: 90 },
    KPIS.map((kpi, i) => ({ label: KPI_DEFINITIONS[kpi].name[lang], value: values[i] ?? 0, text: formatMean(values[i] ?? 0, lang) })),
  );
  doc.x = MARGIN;
  doc.y = top + 245;
}

/** Each KPI with its level and what the level means; without ratings, what the KPI assesses. */
function kpiList(report: Report, kpis: { kpi: (typeof KPIS)[number]; rating: RatingLevel | null }[]) {
  const { doc, lang, data } = report;
  for (const kpi of KPIS) {
    const rating = kpis.find((k) => k.kpi === kpi)?.rating ?? null;
    const def = KPI_DEFINITIONS[kpi];
    ensureSpace(doc, 50);
    doc.font('bold').fontSize(10).fillColor(INK).text(def.name[lang], MARGIN);
    if (data.result.ratingsShown) {
      ratingLine(doc, rating, ratingText(report, rating));
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
  doc.font('regular').fontSize(10).fillColor(INK);
}

/** The learner's self-assessment against the expert — or, reviewed several times, the experts' mean. */
function selfAssessmentTable(report: Report, items: SelfVsExpertItem[], againstMean: boolean): TableSpec {
  const { lang } = report;
  const s = SELF_TEXT[lang];
  const number = (v: number | null) => (v === null ? '–' : v.toLocaleString(locale(lang), { maximumFractionDigits: 2 }));
  return {
    columns: [0.42, 0.14, 0.18, 0.26],
    header: [s.header[0], s.header[1], againstMean ? REVIEWS_TEXT[lang].selfExperts : s.header[2], s.header[3]],
    rows: items.map((item) => {
      const word = gapWord(item.gap);
      const gap = word === null ? s.gap.none : s.gap[word].replace('{g}', number(item.gap === null ? null : Math.abs(item.gap)));
      const name = item.kpi === 'global' ? s.global : KPI_DEFINITIONS[item.kpi].name[lang];
      return { cells: [name, number(item.self), number(item.expert), gap] };
    }),
  };
}

function activeTimes(report: Report) {
  const { doc, t, data } = report;
  doc.moveDown(0.5);
  field(report, t.activeTime, formatTimecode(data.result.activeTime));
  field(report, t.nonActiveTime, formatTimecode(data.result.nonActiveTime));
}

/** The assessment (when written), the advice and the voice advice of one review. */
function adviceSection(
  report: Report,
  review: Pick<Review, 'assessment' | 'advice' | 'voice'>,
  title: (report: Report, text: string) => void = heading,
) {
  const { doc, t, width } = report;
  if (review.assessment.trim()) {
    title(report, t.assessment);
    doc.text(review.assessment, MARGIN, undefined, { width });
  }
  title(report, t.advice);
  doc.text(review.advice.trim() || t.none, MARGIN, undefined, { width });
  if (review.voice)
    doc
      .moveDown(0.3)
      .fillColor(MUTED)
      .text(t.voice.replace('{d}', formatTimecode(review.voice.duration)))
      .fillColor(INK);
}

/** Comments in time order, each drawing over the frame it was made on. */
function commentList(report: Report, comments: AnalysisComment[]) {
  const { doc, t, width, data } = report;
  if (!comments.length) doc.font('regular').fontSize(10).fillColor(INK).text(t.none, MARGIN);
  for (const c of comments) {
    ensureSpace(doc, 30);
    const at = c.end != null ? `${formatTimecode(c.start)}–${formatTimecode(c.end)}` : formatTimecode(c.start);
    doc.font('bold').fontSize(10).fillColor(COLORS.secondary).text(at, MARGIN, undefined, { continued: true });
    doc.font('regular').fillColor(INK).text(`  ${c.text}`, { width });
    const frame = c.drawing ? data.frames?.get(c.drawing.time) : undefined;
    if (c.drawing && frame) annotatedFrame(doc, frame, c.drawing, t.frameAt.replace('{t}', formatTimecode(c.drawing.time)));
  }
}

// ---- Text

/** A section's heading, on the page of the first `keep` points of what follows it. */
function heading(report: Report, text: string, keep = 20) {
  const { doc } = report;
  ensureSpace(doc, 40 + keep);
  doc.moveDown(0.8).font('bold').fontSize(14).fillColor(COLORS.primary).text(text, MARGIN).moveDown(0.3);
  doc.font('regular').fontSize(10).fillColor(INK);
}

/** A heading inside a review's section. */
function subheading(report: Report, text: string, keep = 20) {
  const { doc } = report;
  ensureSpace(doc, 30 + keep);
  doc.moveDown(0.7).font('bold').fontSize(11).fillColor(INK).text(text, MARGIN).moveDown(0.2);
  doc.font('regular').fontSize(10);
}

function field(report: Report, label: string, value: string) {
  const { doc, lang } = report;
  doc
    .font('bold')
    .fontSize(10)
    .fillColor(INK)
    .text(`${label}${lang === 'fr' ? ' : ' : ': '}`, MARGIN, undefined, { continued: true });
  doc.font('regular').text(value);
}

function note(report: Report, text: string) {
  report.doc
    .moveDown(0.3)
    .font('regular')
    .fontSize(10)
    .fillColor(MUTED)
    .text(text, MARGIN, undefined, { width: report.width })
    .fillColor(INK);
}

const locale = (lang: Language) => (lang === 'fr' ? 'fr-FR' : 'en-GB');
const longDate = (iso: string, lang: Language) => new Intl.DateTimeFormat(locale(lang), { dateStyle: 'long' }).format(new Date(iso));
const expertName = (expert: Pick<ResultExpert, 'firstName' | 'lastName'>) => `${expert.firstName} ${expert.lastName}`.trim();
const ratingText = (report: Report, level: RatingLevel | null) =>
  level ? `${level}/5 — ${RATING_LABELS[level][report.lang]}` : report.t.notRated;
/** A mean of levels as the result page writes it: one decimal at most, in the reader's language. */
const formatMean = (value: number, lang: Language) => value.toLocaleString(locale(lang), { maximumFractionDigits: 1 });
const meanText = (report: Report, value: number | null) => (value === null ? '–' : `${formatMean(value, report.lang)}/5`);
const stepTimes = (step: AnalysisResult['steps'][number]) => [
  step.name,
  formatTimecode(step.start),
  formatTimecode(step.end),
  formatTimecode(step.duration),
];
