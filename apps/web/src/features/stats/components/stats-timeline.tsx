import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useTheme } from '@mui/material/styles';
import type { RadarLine } from './stats-radar';

/** Series month by month, from 0 to `max` (KPIs: 5, NASA-TLX: 100); loaded only on the statistics page. */
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
  return (
    <ResponsiveContainer width="100%" height={320}>
      <LineChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: -16 }}>
        <CartesianGrid stroke={theme.palette.divider} />
        <XAxis dataKey="month" tick={{ fill: theme.palette.text.secondary, fontSize: 11 }} />
        <YAxis domain={[0, max]} tickCount={6} tick={{ fill: theme.palette.text.secondary, fontSize: 11 }} />
        <Tooltip
          contentStyle={{
            background: theme.palette.background.paper,
            borderColor: theme.palette.divider,
            color: theme.palette.text.primary,
          }}
        />
        <Legend wrapperStyle={{ color: theme.palette.text.primary, fontSize: 13 }} />
        {lines.map((line) => (
          <Line
            key={line.key}
            name={line.label}
            dataKey={line.key}
            stroke={line.color}
            strokeWidth={line.key === bold ? 3 : 1.5}
            strokeDasharray={line.dashed ? '5 4' : undefined}
            connectNulls
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}
