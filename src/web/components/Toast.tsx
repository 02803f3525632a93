import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

type Kind = 'success' | 'error' | 'info';
interface Toast {
  id: number;
  text: string;
  kind: Kind;
}
const Ctx = createContext<{ show(text: string, kind?: Kind): void } | null>(null);

/** Outcome messages, announced to screen readers (errors assertively). */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setItems((xs) => xs.filter((x) => x.id !== id)), []);
  const show = useCallback(
    (text: string, kind: Kind = 'info') => {
      const id = Date.now() + Math.random();
      setItems((xs) => [...xs.slice(-3), { id, text, kind }]);
      setTimeout(() => dismiss(id), kind === 'error' ? 9000 : 4500);
    },
    [dismiss],
  );
  const value = useMemo(() => ({ show }), [show]);
  return (
    <Ctx.Provider value={value}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {items
          .filter((t) => t.kind !== 'error')
          .map((t) => (
            <div key={t.id} className={`toast toast-${t.kind}`}>
              <span>{t.text}</span>
              <button type="button" className="icon-btn" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
                ×
              </button>
            </div>
          ))}
      </div>
      <div className="toasts toasts-errors" role="alert" aria-live="assertive">
        {items
          .filter((t) => t.kind === 'error')
          .map((t) => (
            <div key={t.id} className="toast toast-error">
              <span>{t.text}</span>
              <button type="button" className="icon-btn" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
                ×
              </button>
            </div>
          ))}
      </div>
    </Ctx.Provider>
  );
}

export function useToast() {
  const v = useContext(Ctx);
  if (!v) throw new Error('useToast outside ToastProvider');
  return v;
}
