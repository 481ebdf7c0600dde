import { PolarAngleAxis, PolarGrid, PolarRadiusAxis, Radar, RadarChart, ResponsiveContainer } from 'recharts';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';

/** The five KPIs as a polar chart (loaded only where shown: recharts is large). */
export default function KpiRadar({ data }: { data: { name: string; rating: number }[] }) {
  const theme = useTheme();
  // On a phone the skills' names need the room around a smaller chart.
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  return (
    <ResponsiveContainer width="100%" height={narrow ? 260 : 320}>
      <RadarChart data={data} outerRadius={narrow ? '42%' : '70%'}>
        <PolarGrid stroke={theme.palette.divider} />
        <PolarAngleAxis dataKey="name" tick={{ fill: theme.palette.text.primary, fontSize: narrow ? 10 : 12 }} />
        <PolarRadiusAxis domain={[0, 5]} tickCount={6} tick={{ fill: theme.palette.text.secondary, fontSize: 11 }} />
        <Radar
          dataKey="rating"
          stroke={theme.palette.primary.main}
          fill={theme.palette.primary.main}
          fillOpacity={0.35}
          isAnimationActive={false}
        />
      </RadarChart>
    </ResponsiveContainer>
  );
}
