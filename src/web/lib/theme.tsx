import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'docpipe.theme';
const Ctx = createContext<{ choice: ThemeChoice; dark: boolean; setChoice(c: ThemeChoice): void } | null>(null);

function systemDark(): boolean {
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
}

/** Light and dark follow the system unless the person picks one (kept in localStorage: not a secret). */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const [choice, setChoiceState] = useState<ThemeChoice>(() => (localStorage.getItem(KEY) as ThemeChoice) || 'system');
  const [sys, setSys] = useState(systemDark);
  useEffect(() => {
    const mq = window.matchMedia?.('(prefers-color-scheme: dark)');
    const on = () => setSys(mq.matches);
    mq?.addEventListener('change', on);
    return () => mq?.removeEventListener('change', on);
  }, []);
  const dark = choice === 'dark' || (choice === 'system' && sys);
  useEffect(() => {
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
  }, [dark]);
  const value = useMemo(
    () => ({
      choice,
      dark,
      setChoice(c: ThemeChoice) {
        localStorage.setItem(KEY, c);
        setChoiceState(c);
      },
    }),
    [choice, dark],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useTheme() {
  const v = useContext(Ctx);
  if (!v) throw new Error('useTheme outside ThemeProvider');
  return v;
}
