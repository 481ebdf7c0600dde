import { Legend, PolarAngleAxis, PolarGrid, PolarRadiusAxis, Radar, RadarChart, ResponsiveContainer } from 'recharts';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { RadarTick, type AxisTickProps } from '@/components/radar-tick';
import { useChartPalette } from '@/lib/theme';

/** One outline of the chart: a review, or the mean of the reviews (dashed, unfilled). */
export interface RadarSeries {
  key: string;
  label: string;
  /** The palette's colour (the first is the learner's own, the experts take the next ones). */
  colourIndex?: number;
  dashed?: boolean;
}

const SINGLE: RadarSeries[] = [{ key: 'rating', label: '' }];

/**
 * The five KPIs as a polar chart (loaded only where shown: recharts is large). On a phone it
 * takes the width of the screen, the skills' names wrapped around it and the scale set between
 * the first two skills, clear of their names. With several reviews, each is an outline of its
 * own and a legend names them.
 */
export default function KpiRadar({ data, series = SINGLE }: { data: Record<string, string | number>[]; series?: RadarSeries[] }) {
  const theme = useTheme();
  const palette = useChartPalette();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  const legend = series.length > 1;
  const height = (narrow ? 340 : 380) + (legend ? 48 : 0);
  return (
    <ResponsiveContainer width="100%" height={height}>
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
        {series.map((s, index) => {
          const colour = s.dashed ? palette.text : palette.series[(s.colourIndex ?? index) % palette.series.length]!;
          return (
            <Radar
              key={s.key}
              name={s.label}
              dataKey={s.key}
              stroke={colour}
              strokeWidth={2}
              strokeDasharray={s.dashed ? '6 4' : undefined}
              fill={colour}
              fillOpacity={s.dashed ? 0 : legend ? 0.15 : 0.3}
              isAnimationActive={false}
            />
          );
        })}
        {legend && (
          <Legend
            verticalAlign="bottom"
            wrapperStyle={{ fontSize: 13, paddingTop: 8 }}
            formatter={(value: string) => <span style={{ color: palette.text }}>{value}</span>}
          />
        )}
      </RadarChart>
    </ResponsiveContainer>
  );
}
