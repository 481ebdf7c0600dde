import { PolarAngleAxis, PolarGrid, PolarRadiusAxis, Radar, RadarChart, ResponsiveContainer } from 'recharts';
import { useTheme } from '@mui/material/styles';

/** The five KPIs as a polar chart (loaded only where shown: recharts is large). */
export default function KpiRadar({ data }: { data: { name: string; rating: number }[] }) {
  const theme = useTheme();
  return (
    <ResponsiveContainer width="100%" height={320}>
      <RadarChart data={data} outerRadius="70%">
        <PolarGrid stroke={theme.palette.divider} />
        <PolarAngleAxis dataKey="name" tick={{ fill: theme.palette.text.primary, fontSize: 12 }} />
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
