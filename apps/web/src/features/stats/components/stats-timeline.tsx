import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useTheme, type Theme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useChartPalette } from '@/lib/theme';
import type { RadarLine } from './stats-radar';
import { lineEnds } from './line-ends';

const CHAR_WIDTH = 6.5;
const HEIGHT = 320;
const MARGIN = { top: 12, bottom: 8 };
const X_AXIS_HEIGHT = 30;

/**
 * Series month by month, from 0 to `max` (KPIs: 5, NASA-TLX: 100); loaded only on the statistics
 * page. Each line is named where it ends (its label in the chart's text colour, after a stroke
 * of its own colour and dash); a phone, too narrow for the names, has the legend under the chart.
 */
export default function StatsTimeline({
  data,
  lines,
  max = 5,
  bold = 'global',
}: {
  data: Record<string, string | number | null>[];
  lines: RadarLine[];
  max?: number;
  /** The key of the series drawn thicker. */
  bold?: string;
}) {
  const theme = useTheme();
  const palette = useChartPalette();
  const direct = useMediaQuery((t: Theme) => t.breakpoints.up('sm'), { noSsr: true });
  const longest = Math.max(...lines.map((l) => l.label.length));
  const right = direct ? Math.min(220, Math.round(longest * CHAR_WIDTH) + 40) : 16;
  const ends = direct
    ? lineEnds(
        data,
        lines.map((l) => l.key),
        max,
        HEIGHT - MARGIN.top - MARGIN.bottom - X_AXIS_HEIGHT,
      )
    : [];
  return (
    <ResponsiveContainer width="100%" height={HEIGHT}>
      <LineChart accessibilityLayer={false} data={data} margin={{ ...MARGIN, right, left: -16 }}>
        <CartesianGrid stroke={theme.palette.divider} />
        <XAxis dataKey="month" height={X_AXIS_HEIGHT} tick={{ fill: palette.mutedText, fontSize: 11 }} />
        <YAxis domain={[0, max]} tickCount={6} tick={{ fill: palette.mutedText, fontSize: 11 }} />
        <Tooltip
          contentStyle={{
            background: theme.palette.background.paper,
            borderColor: theme.palette.divider,
            color: palette.text,
          }}
        />
        {!direct && (
          <Legend
            iconType="plainline"
            wrapperStyle={{ fontSize: 13 }}
            formatter={(value: string) => <span style={{ color: palette.text }}>{value}</span>}
          />
        )}
        {lines.map((line) => {
          const end = ends.find((e) => e.key === line.key);
          return (
            <Line
              key={line.key}
              name={line.label}
              dataKey={line.key}
              stroke={line.color}
              strokeWidth={line.key === bold ? 3 : 1.5}
              strokeDasharray={line.dashed ? '5 4' : undefined}
              connectNulls
              isAnimationActive={false}
              label={
                end
                  ? ({ x, y, index }) =>
                      index === end.index ? (
                        <g data-testid="stats-timeline-label">
                          <line
                            x1={Number(x) + 6}
                            x2={Number(x) + 22}
                            y1={Number(y) + end.shift}
                            y2={Number(y) + end.shift}
                            stroke={line.color}
                            strokeWidth={line.key === bold ? 3 : 2}
                            strokeDasharray={line.dashed ? '4 3' : undefined}
                          />
                          <text x={Number(x) + 26} y={Number(y) + end.shift} dominantBaseline="central" fill={palette.text} fontSize={12}>
                            {line.label}
                          </text>
                        </g>
                      ) : (
                        <g />
                      )
                  : undefined
              }
            />
          );
        })}
      </LineChart>
    </ResponsiveContainer>
  );
}
