/**
 * A screen as the spec saw it, one row per line, with the resolved sections drawn over their
 * row ranges (a band and its id per section). Plain text in rows of a fixed height, so a
 * section's band lines up with its rows exactly; used for the live screen and for a past moment.
 */

export interface OverlaySection { id: string; from_row: number; to_row: number }

const SECTION_HUES = [210, 35, 140, 280, 0, 180];

export function ScreenOverlay(props: { lines: string[]; sections?: OverlaySection[]; cursorRow?: number; label: string }) {
  const rows = props.lines.length;
  const visible = (props.sections ?? [])
    .map((s) => ({ ...s, from: Math.max(0, s.from_row), to: Math.min(rows, s.to_row) }))
    .filter((s) => s.to > s.from);
  return (
    <div class="screen-overlay" role="region" tabIndex={0} aria-label={props.label} style={{ '--rows': rows }}>
      <pre class="screen-text">{props.lines.map((line, i) => (
        <span key={i} class={i === props.cursorRow ? 'screen-row cursor-row' : 'screen-row'}>{line || ' '}{'\n'}</span>
      ))}</pre>
      {visible.map((s, i) => (
        <div key={s.id} class="section-band" data-section={s.id} data-rows={`${s.from_row}-${s.to_row}`}
          style={{ top: `calc(${s.from} * var(--row-h))`, height: `calc(${s.to - s.from} * var(--row-h))`, '--hue': SECTION_HUES[i % SECTION_HUES.length] }}>
          <span class="section-name">{s.id}</span>
        </div>
      ))}
    </div>
  );
}
