import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useTheme } from '@mui/material/styles';
import { useChartPalette } from '@/lib/theme';

export interface CurveLine {
  key: string;
  label: string;
  dashed?: boolean;
}

/**
 * One chart of a learning curve, case by case (loaded only with the curves): the lines given, and
 * the limits of the CUSUM as labelled reference lines. The table beside it holds the same numbers.
 */
export default function CurveChart({
  data,
  lines,
  domain,
  limits = [],
  testId,
}: {
  data: Record<string, string | number | null>[];
  lines: CurveLine[];
  domain: [number, number];
  limits?: { y: number; label: string }[];
  testId: string;
}) {
  const theme = useTheme();
  const palette = useChartPalette();
  return (
    <div data-testid={testId} aria-hidden="true">
      <ResponsiveContainer width="100%" height={240}>
        <LineChart accessibilityLayer={false} data={data} margin={{ top: 12, right: 16, bottom: 4, left: -16 }}>
          <CartesianGrid stroke={theme.palette.divider} />
          <XAxis dataKey="index" tick={{ fill: palette.mutedText, fontSize: 11 }} />
          <YAxis domain={domain} tick={{ fill: palette.mutedText, fontSize: 11 }} allowDecimals />
          <Tooltip contentStyle={{ background: theme.palette.background.paper, borderColor: theme.palette.divider, color: palette.text }} />
          <Legend
            iconType="plainline"
            wrapperStyle={{ fontSize: 13 }}
            formatter={(value: string) => <span style={{ color: palette.text }}>{value}</span>}
          />
          {limits.map((l) => (
            <ReferenceLine
              key={l.label}
              y={l.y}
              stroke={palette.mutedText}
              strokeDasharray="2 3"
              label={{ value: l.label, fill: palette.text, fontSize: 11, position: 'insideTopLeft' }}
            />
          ))}
          {lines.map((line, i) => (
            <Line
              key={line.key}
              name={line.label}
              dataKey={line.key}
              stroke={palette.series[i % palette.series.length]}
              strokeWidth={line.dashed ? 1.5 : 2.5}
              strokeDasharray={line.dashed ? '5 4' : undefined}
              connectNulls
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
