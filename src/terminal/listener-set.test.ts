import { describe, expect, it } from 'vitest';
import { ListenerSet } from './listener-set.js';

describe('ListenerSet', () => {
  it('calls listeners in registration order and stops after dispose', () => {
    const set = new ListenerSet<number>('n');
    const seen: string[] = [];
    set.add((n) => seen.push(`a${n}`));
    const b = set.add((n) => seen.push(`b${n}`));
    set.emit(1);
    b.dispose();
    b.dispose();
    set.emit(2);
    expect(seen).toEqual(['a1', 'b1', 'a2']);
    expect(set.size).toBe(1);
  });

  it('reports a throwing listener to the sink and still calls the others', () => {
    const reported: Array<[unknown, string]> = [];
    const set = new ListenerSet<string>('data', (error, event) => reported.push([error, event]));
    const seen: string[] = [];
    set.add(() => {
      throw new Error('bad');
    });
    set.add((v) => seen.push(v));
    expect(() => set.emit('x')).not.toThrow();
    expect(seen).toEqual(['x']);
    expect(reported).toHaveLength(1);
    expect(reported[0]?.[1]).toBe('data');
  });

  it('survives a sink that throws', () => {
    const set = new ListenerSet<string>('data', () => {
      throw new Error('sink broken');
    });
    set.add(() => {
      throw new Error('bad');
    });
    expect(() => set.emit('x')).not.toThrow();
  });

  it('registers the same function twice as two independent subscriptions', () => {
    const set = new ListenerSet<number>('n');
    let calls = 0;
    const fn = (): void => void calls++;
    const first = set.add(fn);
    set.add(fn);
    first.dispose();
    set.emit(0);
    expect(calls).toBe(1);
  });
});
