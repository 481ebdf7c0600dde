import { CartesianGrid, ReferenceLine, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis, ZAxis } from 'recharts';
import { useTheme } from '@mui/material/styles';
import { useChartPalette } from '@/lib/theme';
import type { blandAltmanChart } from './agreement-view';

/**
 * The Bland–Altman scatter (recharts, loaded with the page that shows it): one point per (mean,
 * difference), its area growing with the cases it holds; the bias solid, the limits dashed, each
 * named on the line in the chart's text colour. The table beside it is what screen readers read.
 */
export default function BlandAltmanChart({
  chart,
  labels,
}: {
  chart: ReturnType<typeof blandAltmanChart>;
  labels: { mean: string; difference: string; cases: string; bias: string; lower: string; upper: string };
}) {
  const theme = useTheme();
  const palette = useChartPalette();
  const lineColour = { bias: palette.series[1]!, lower: palette.series[2]!, upper: palette.series[2]! };
  return (
    <ResponsiveContainer width="100%" height={320}>
      {/* Hidden from screen readers (the tables say the same): no keyboard stop inside it either. */}
      <ScatterChart accessibilityLayer={false} margin={{ top: 16, right: 16, bottom: 24, left: 0 }}>
        <CartesianGrid stroke={theme.palette.divider} />
        <XAxis
          type="number"
          dataKey="mean"
          name={labels.mean}
          domain={chart.x}
          ticks={chart.xTicks}
          allowDecimals
          tick={{ fill: palette.mutedText, fontSize: 11 }}
          label={{ value: labels.mean, position: 'insideBottom', offset: -14, fill: palette.text, fontSize: 12 }}
        />
        <YAxis
          type="number"
          dataKey="difference"
          name={labels.difference}
          domain={chart.y}
          ticks={chart.yTicks}
          width={40}
          tick={{ fill: palette.mutedText, fontSize: 11 }}
        />
        <ZAxis type="number" dataKey="cases" name={labels.cases} range={[40, 400]} />
        <ReferenceLine y={0} stroke={palette.mutedText} />
        {chart.lines.map((line) => (
          <ReferenceLine
            key={line.key}
            y={line.value}
            stroke={lineColour[line.key]}
            strokeWidth={2}
            strokeDasharray={line.key === 'bias' ? undefined : '6 4'}
            label={{ value: labels[line.key], position: 'insideTopRight', fill: palette.text, fontSize: 11 }}
          />
        ))}
        <Tooltip
          cursor={{ strokeDasharray: '3 3' }}
          contentStyle={{ background: theme.palette.background.paper, borderColor: theme.palette.divider, color: palette.text }}
        />
        <Scatter data={chart.points} fill={palette.series[0]} fillOpacity={0.75} isAnimationActive={false} />
      </ScatterChart>
    </ResponsiveContainer>
  );
}
