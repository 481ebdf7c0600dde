import { Legend, PolarAngleAxis, PolarGrid, PolarRadiusAxis, Radar, RadarChart, ResponsiveContainer } from 'recharts';
import { useTheme } from '@mui/material/styles';

export interface RadarLine {
  key: string;
  label: string;
  color: string;
  dashed: boolean;
}

/** The five KPIs with one polygon per series (loaded only on the statistics page: recharts is large). */
export default function StatsRadar({ data, lines }: { data: Record<string, string | number | null>[]; lines: RadarLine[] }) {
  const theme = useTheme();
  return (
    <ResponsiveContainer width="100%" height={360}>
      <RadarChart data={data} outerRadius="58%">
        <PolarGrid stroke={theme.palette.divider} />
        <PolarAngleAxis dataKey="name" tick={{ fill: theme.palette.text.primary, fontSize: 11 }} />
        <PolarRadiusAxis angle={90} domain={[0, 5]} tickCount={6} tick={{ fill: theme.palette.text.secondary, fontSize: 11 }} />
        {lines.map((line) => (
          <Radar
            key={line.key}
            name={line.label}
            dataKey={line.key}
            stroke={line.color}
            strokeDasharray={line.dashed ? '5 4' : undefined}
            fill={line.color}
            fillOpacity={line.key === 's0' ? 0.25 : 0}
            isAnimationActive={false}
          />
        ))}
        <Legend wrapperStyle={{ color: theme.palette.text.primary, fontSize: 13 }} />
      </RadarChart>
    </ResponsiveContainer>
  );
}
