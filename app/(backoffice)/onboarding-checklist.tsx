import Link from 'next/link';
import type { OnboardingStep } from '@/lib/composition/onboarding';
import { StatusChip } from '@/components/ui';

/**
 * "Pour bien démarrer": the first-run checklist on the dashboard, shown while a step is open. Done steps are
 * struck through; each open one links to the page that completes it. Built from the shared classes only
 * (.card, .progress, .chip), one step a line, so it wraps at 390 px.
 */
export function OnboardingChecklist({ steps }: { steps: OnboardingStep[] }) {
  const done = steps.filter((s) => s.done).length;
  const percent = steps.length ? Math.round((done / steps.length) * 100) : 100;
  return (
    <section className="card" aria-labelledby="onboarding-title" data-testid="onboarding">
      <h2 id="onboarding-title">Pour bien démarrer</h2>
      <p className="muted" data-testid="onboarding-progress">
        {done} sur {steps.length} étapes terminées
      </p>
      <div className="progress" role="progressbar" aria-label="Progression de la mise en route" aria-valuemin={0} aria-valuemax={steps.length} aria-valuenow={done}>
        <span className="progress-bar" style={{ width: `${percent}%` }} />
      </div>
      <ol className="stack" style={{ listStyle: 'none', padding: 0, margin: '12px 0 0' }}>
        {steps.map((step) => (
          <li key={step.key} data-step={step.key} data-done={step.done}>
            {step.done ? (
              <>
                <StatusChip tone="chip-green">Fait</StatusChip> <s className="muted">{step.label}</s>
              </>
            ) : (
              <>
                <StatusChip>À faire</StatusChip> <Link href={step.href}>{step.label}</Link>
                {step.hint && <div className="muted" style={{ fontSize: 13, overflowWrap: 'anywhere' }}>{step.hint}</div>}
              </>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
