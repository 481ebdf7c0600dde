import { Legend, PolarAngleAxis, PolarGrid, PolarRadiusAxis, Radar, RadarChart, ResponsiveContainer } from 'recharts';
import { useTheme, type Theme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { RadarTick, type AxisTickProps } from '@/components/radar-tick';
import { useChartPalette } from '@/lib/theme';

export interface RadarLine {
  key: string;
  label: string;
  color: string;
  dashed: boolean;
}

/** The five KPIs with one polygon per series (loaded only on the statistics page: recharts is large). */
export default function StatsRadar({ data, lines }: { data: Record<string, string | number | null>[]; lines: RadarLine[] }) {
  const theme = useTheme();
  const palette = useChartPalette();
  // Larger where the page is wide; a phone keeps room around it for the skills' names.
  const wide = useMediaQuery((t: Theme) => t.breakpoints.up('md'), { noSsr: true });
  return (
    <ResponsiveContainer width="100%" height={wide ? 460 : 360}>
      <RadarChart
        accessibilityLayer={false}
        data={data}
        outerRadius={wide ? '68%' : '62%'}
        margin={{ top: 8, right: 4, bottom: 8, left: 4 }}
      >
        <PolarGrid stroke={theme.palette.divider} />
        <PolarAngleAxis dataKey="name" tick={(props: AxisTickProps) => <RadarTick {...props} fill={palette.text} />} />
        {/* The scale between the first two skills, clear of the first skill's name at the top. */}
        <PolarRadiusAxis angle={54} domain={[0, 5]} tickCount={6} tick={{ fill: palette.mutedText, fontSize: 11 }} />
        {lines.map((line) => (
          <Radar
            key={line.key}
            name={line.label}
            dataKey={line.key}
            stroke={line.color}
            strokeWidth={line.key === 's0' ? 2.5 : 1.5}
            strokeDasharray={line.dashed ? '5 4' : undefined}
            fill={line.color}
            fillOpacity={line.key === 's0' ? 0.25 : 0}
            isAnimationActive={false}
          />
        ))}
        <Legend
          iconType="plainline"
          wrapperStyle={{ fontSize: 13 }}
          formatter={(value: string) => <span style={{ color: palette.text }}>{value}</span>}
        />
      </RadarChart>
    </ResponsiveContainer>
  );
}
