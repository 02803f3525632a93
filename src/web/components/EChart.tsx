// ECharts with only the parts the pages use (bar, line, pie on canvas), loaded on demand.
import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { AriaComponent, DatasetComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { EChartsCoreOption } from 'echarts/core';
import { useTheme } from '../lib/theme';

echarts.use([
  BarChart,
  LineChart,
  PieChart,
  AriaComponent,
  DatasetComponent,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  CanvasRenderer,
]);

export const PALETTE = [
  '#3b7dd8',
  '#2e9e5b',
  '#d98c1f',
  '#c94a4a',
  '#7b5cc4',
  '#1c9aa6',
  '#8a8f98',
  '#d45fa0',
  '#6b8e23',
  '#b5651d',
];

export default function EChart({
  option,
  label,
  height = 260,
}: {
  option: EChartsCoreOption;
  label: string;
  height?: number;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const { dark } = useTheme();
  useEffect(() => {
    if (!ref.current) return;
    chart.current = echarts.init(ref.current, dark ? 'dark' : undefined, { renderer: 'canvas' });
    const ro = new ResizeObserver(() => chart.current?.resize());
    ro.observe(ref.current);
    return () => {
      ro.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, [dark]);
  useEffect(() => {
    const text = getComputedStyle(document.documentElement).getPropertyValue('--text').trim() || '#222';
    chart.current?.setOption(
      {
        backgroundColor: 'transparent',
        color: PALETTE,
        textStyle: { color: text },
        aria: { enabled: true, label: { description: label } },
        animation: !window.matchMedia('(prefers-reduced-motion: reduce)').matches,
        ...option,
      },
      true,
    );
  }, [option, label, dark]);
  return <div ref={ref} className="chart" style={{ height }} role="img" aria-label={label} />;
}
