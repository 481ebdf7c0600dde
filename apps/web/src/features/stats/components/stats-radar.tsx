import { Legend, PolarAngleAxis, PolarGrid, PolarRadiusAxis, Radar, RadarChart, ResponsiveContainer } from 'recharts';
import { useTheme, type Theme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';

export interface RadarLine {
  key: string;
  label: string;
  color: string;
  dashed: boolean;
}

interface AxisTickProps {
  x?: number | string;
  y?: number | string;
  textAnchor?: string;
  payload?: { value?: unknown };
}

/** A KPI's name on one line per word, so that long French names stay inside a phone's width. */
function WrappedTick({ x, y, textAnchor, payload, fill }: AxisTickProps & { fill: string }) {
  const words: string[] = [];
  for (const word of String(payload?.value ?? '').split(' ')) {
    const last = words.at(-1);
    if (last !== undefined && last.length + word.length < 14) words[words.length - 1] = `${last} ${word}`;
    else words.push(word);
  }
  const top = Number(y) - ((words.length - 1) * 13) / 2;
  return (
    <text x={Number(x)} y={top} textAnchor={textAnchor as 'start' | 'middle' | 'end'} fill={fill} fontSize={11}>
      {words.map((word, i) => (
        <tspan key={i} x={Number(x)} dy={i === 0 ? 0 : 13}>
          {word}
        </tspan>
      ))}
    </text>
  );
}

/** The five KPIs with one polygon per series (loaded only on the statistics page: recharts is large). */
export default function StatsRadar({ data, lines }: { data: Record<string, string | number | null>[]; lines: RadarLine[] }) {
  const theme = useTheme();
  // Larger where the page is wide; a phone keeps room around it for the skills' names.
  const wide = useMediaQuery((t: Theme) => t.breakpoints.up('md'), { noSsr: true });
  return (
    <ResponsiveContainer width="100%" height={wide ? 460 : 360}>
      <RadarChart data={data} outerRadius={wide ? '68%' : '58%'}>
        <PolarGrid stroke={theme.palette.divider} />
        <PolarAngleAxis dataKey="name" tick={(props: AxisTickProps) => <WrappedTick {...props} fill={theme.palette.text.primary} />} />
        {/* The scale between the first two skills, clear of the first skill's name at the top. */}
        <PolarRadiusAxis angle={54} domain={[0, 5]} tickCount={6} tick={{ fill: theme.palette.text.secondary, fontSize: 11 }} />
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
