import { PolarAngleAxis, PolarGrid, PolarRadiusAxis, Radar, RadarChart, ResponsiveContainer } from 'recharts';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { RadarTick, type AxisTickProps } from '@/components/radar-tick';
import { useChartPalette } from '@/lib/theme';

/**
 * The five KPIs as a polar chart (loaded only where shown: recharts is large). On a phone it
 * takes the width of the screen, the skills' names wrapped around it and the scale set between
 * the first two skills, clear of their names.
 */
export default function KpiRadar({ data }: { data: { name: string; rating: number }[] }) {
  const theme = useTheme();
  const palette = useChartPalette();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  return (
    <ResponsiveContainer width="100%" height={narrow ? 340 : 380}>
      <RadarChart
        accessibilityLayer={false}
        data={data}
        outerRadius={narrow ? '66%' : '72%'}
        margin={{ top: 4, right: 4, bottom: 4, left: 4 }}
      >
        <PolarGrid stroke={theme.palette.divider} />
        <PolarAngleAxis
          dataKey="name"
          tick={(props: AxisTickProps) => <RadarTick {...props} fill={palette.text} fontSize={narrow ? 11 : 12} />}
        />
        <PolarRadiusAxis angle={54} domain={[0, 5]} tickCount={6} tick={{ fill: palette.mutedText, fontSize: 11 }} />
        <Radar
          dataKey="rating"
          stroke={palette.series[0]}
          strokeWidth={2}
          fill={palette.series[0]}
          fillOpacity={0.3}
          isAnimationActive={false}
        />
      </RadarChart>
    </ResponsiveContainer>
  );
}
