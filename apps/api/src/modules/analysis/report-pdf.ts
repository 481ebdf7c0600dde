import { ratingColor, type RatingLevel } from '@sutura/domain/analysis';
import { DRAWING_COLOR_HEX, DRAWING_OUTLINE, DRAWING_STYLE, type Drawing } from '@sutura/domain/drawing';
import { COLORS } from '@sutura/domain/limits';
import type { FramePicture } from './annotated-frames.ts';

/**
 * What the PDF report draws (analysis.report.ts composes it): tables, rating swatches, the radar
 * and the annotated frames, with pdfkit's vector graphics.
 */

export const MARGIN = 50;
export const INK = COLORS.textLight;
export const MUTED = '#5B6B67';
const RULE = '#D0D5D4';

/** A new page when the next `height` points would not fit on this one: a block is never split from its first line. */
export function ensureSpace(doc: PDFKit.PDFDocument, height: number) {
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
}

/** A colour swatch of the level, then its text. */
export function ratingLine(doc: PDFKit.PDFDocument, level: RatingLevel | null, text: string) {
  const y = doc.y;
  doc.roundedRect(MARGIN, y + 1, 12, 10, 2).fill(level ? ratingColor(level) : RULE);
  doc
    .font('regular')
    .fontSize(10)
    .fillColor(INK)
    .text(text, MARGIN + 18, y);
}

export interface TableRow {
  cells: string[];
  /** A level per cell: that cell is drawn on the level's colour (a rating). */
  levels?: readonly (RatingLevel | null | undefined)[];
  /** Cells written in bold (a mean). */
  bold?: readonly number[];
}

/** The height a row takes at the table's width. */
function rowHeight(doc: PDFKit.PDFDocument, row: TableRow, columns: readonly number[], width: number, header: boolean) {
  const heights = row.cells.map((cell, i) => {
    doc.font(header || row.bold?.includes(i) ? 'bold' : 'regular').fontSize(9);
    return doc.heightOfString(cell, { width: columns[i]! * width - 6 });
  });
  return Math.max(...heights) + 6;
}

function drawRow(doc: PDFKit.PDFDocument, row: TableRow, columns: readonly number[], width: number, header: boolean) {
  const h = rowHeight(doc, row, columns, width, header);
  ensureSpace(doc, h);
  const y = doc.y;
  if (header) doc.rect(MARGIN, y, width, h).fill('#E8F8F4');
  let x = MARGIN;
  row.cells.forEach((cell, i) => {
    const w = columns[i]! * width;
    const level = header ? null : (row.levels?.[i] ?? null);
    if (level) doc.roundedRect(x + 2, y + 2, w - 4, h - 4, 3).fill(ratingColor(level));
    // White reads on the red, orange and dark green levels; the text colour on the light ones.
    const onDark = level !== null && (level <= 2 || level === 5);
    doc
      .font(header || row.bold?.includes(i) ? 'bold' : 'regular')
      .fontSize(9)
      .fillColor(onDark ? '#FFFFFF' : INK)
      .text(cell, x + 3, y + 3, { width: w - 6, align: i === 0 ? 'left' : 'center' });
    x += w;
  });
  doc
    .moveTo(MARGIN, y + h)
    .lineTo(MARGIN + width, y + h)
    .lineWidth(0.5)
    .strokeColor(RULE)
    .stroke();
  doc.x = MARGIN;
  doc.y = y + h;
}

/** The height a table takes where it will not be split: whole, or its header with its first row when longer than a page. */
export function tableHeight(
  doc: PDFKit.PDFDocument,
  columns: readonly number[],
  width: number,
  header: string[],
  rows: readonly TableRow[],
) {
  const headHeight = rowHeight(doc, { cells: header }, columns, width, true);
  const heights = rows.map((row) => rowHeight(doc, row, columns, width, false));
  const whole = headHeight + heights.reduce((a, b) => a + b, 0);
  const page = doc.page.height - doc.page.margins.top - doc.page.margins.bottom;
  return whole <= page ? whole : headHeight + (heights[0] ?? 0);
}

/**
 * A table: its header, then its rows; the header stays with the first row, and is drawn again
 * at the top of a page the table runs on to.
 */
export function table(doc: PDFKit.PDFDocument, columns: readonly number[], width: number, header: string[], rows: readonly TableRow[]) {
  const head = { cells: header };
  const heights = rows.map((row) => rowHeight(doc, row, columns, width, false));
  // Whole on one page when it fits on one; else at least its header with its first row.
  ensureSpace(doc, tableHeight(doc, columns, width, header, rows));
  drawRow(doc, head, columns, width, true);
  for (const [i, row] of rows.entries()) {
    if (doc.y + heights[i]! > doc.page.height - doc.page.margins.bottom) {
      doc.addPage();
      drawRow(doc, head, columns, width, true);
    }
    drawRow(doc, row, columns, width, false);
  }
  doc.font('regular').fontSize(10).fillColor(INK);
}

/**
 * The five KPIs on a polar (radar) chart: a pentagon per level as the grid, one axis per KPI,
 * the ratings as a filled polygon. Vector paths only, so it prints sharp at any size. A point
 * takes its level's colour; a mean of levels (not a level of the scale) is drawn in ink.
 */
export function radarChart(
  doc: PDFKit.PDFDocument,
  at: { x: number; y: number; r: number },
  axes: { label: string; value: number; text: string }[],
) {
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
      .strokeColor(level === 5 ? '#9AA5A2' : RULE)
      .stroke();
  }
  axes.forEach((_, i) => {
    const [x, y] = point(i, at.r);
    doc.moveTo(at.x, at.y).lineTo(x, y).lineWidth(0.5).strokeColor(RULE).stroke();
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
    if (a.value > 0) doc.circle(x, y, 3).fill(Number.isInteger(a.value) ? ratingColor(a.value as RatingLevel) : INK);
    const [lx, ly] = point(i, at.r + 14);
    const labelWidth = 120;
    const align = Math.abs(lx - at.x) < 5 ? 'center' : lx < at.x ? 'right' : 'left';
    const left = align === 'center' ? lx - labelWidth / 2 : align === 'right' ? lx - labelWidth : lx;
    doc
      .font('regular')
      .fontSize(8)
      .fillColor(INK)
      .text(`${a.label}${a.value ? ` (${a.text})` : ''}`, left, ly - 5, { width: labelWidth, align, lineBreak: false });
  });
  doc.restore();
}

/**
 * The frame a drawing was made on, with the drawing over it as vector paths (sharp at any zoom);
 * the same sizes as the web overlay (drawing-shapes.tsx), as fractions of the picture's height.
 */
export function annotatedFrame(doc: PDFKit.PDFDocument, frame: FramePicture, drawing: Drawing, caption: string) {
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
      textLabel(doc, shape.text, X(shape.at[0]), Y(shape.at[1]), DRAWING_STYLE.text * h, color, DRAWING_STYLE.outline * h * 2);
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

/**
 * A text label of a drawing as the web draws it (SVG `paint-order: stroke`): the dark outline
 * stroked first, the letters filled over it, so that only the outer half of the outline shows
 * around crisp coloured letters. pdfkit's stroke-and-fill text (rendering mode 2) strokes over
 * the fill instead, and the outline then eats into the letters. `x, y` is the baseline's start.
 */
function textLabel(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number, color: string, outline: number) {
  const options = { lineBreak: false, baseline: 'alphabetic' } as const;
  doc.font('bold').fontSize(size);
  doc
    .lineWidth(outline)
    .strokeColor(DRAWING_OUTLINE)
    .text(text, x, y, { ...options, stroke: true, fill: false });
  doc.fillColor(color).text(text, x, y, { ...options, stroke: false, fill: true });
}
