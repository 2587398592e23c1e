'use client';

import { useMemo, useState } from 'react';
import { CONTACT_FIELDS, type ContactField, MAX_IMPORT_ROWS, parseImportRow } from '@/lib/domain/contacts/client';
import type { ImportSummary } from '@/lib/domain/contacts';
import { formatNumber, plural } from '@/lib/platform/format';
import { isRefusal, refusalMessage } from '@/lib/platform/next/client';
import { frenchReason } from '@/lib/platform/i18n';
import { FIELD_LABELS } from '../labels';
import { importChunkAction } from './actions';
import { type CsvRow, chunkRows, decodeCsv, guessMapping, mappedTwice, parseCsv, rowToPayload, toRecords } from './csv';
import { Button, DataTable, LinkButton } from '@/components/ui';

/** Server actions take at most 1 MB of request body: batches stay well under it, whatever the rows hold. */
const MAX_BATCH_BYTES = 512 * 1024;
const SHOWN = 100;

interface Loaded {
  fileName: string;
  headers: string[];
  rows: CsvRow[];
  warning?: string;
}

interface Run {
  total: number;
  done: number;
  created: number;
  skipped: number;
  errors: Array<{ line: number; reason: string }>;
  finished: boolean;
  failure?: string;
}

const TEMPLATE = `data:text/csv;charset=utf-8,${encodeURIComponent(`\uFEFF${CONTACT_FIELDS.map((f) => FIELD_LABELS[f]).join(';')}\r\n`)}`;


/** One batch sent: its summary, or why it was not imported (a refusal of the service, or no answer). */
async function sendBatch(payloads: unknown[]): Promise<ImportSummary | { failure: string }> {
  try {
    const answer = await importChunkAction(payloads);
    return isRefusal(answer) ? { failure: answer.error ?? refusalMessage(answer) } : answer;
  } catch {
    return { failure: 'Le serveur n’a pas répondu.' };
  }
}

/** Upload → column mapping and preview of the refused rows → batches with progress → summary. */
export function ImportWizard() {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const [mapping, setMapping] = useState<Array<ContactField | null>>([]);
  const [run, setRun] = useState<Run | null>(null);

  async function onFile(file: File | undefined) {
    setRun(null);
    setLoaded(null);
    setReadError(null);
    if (!file) return;
    const { table, error } = parseCsv(decodeCsv(await file.arrayBuffer()));
    const { headers, rows } = toRecords(table);
    if (headers.length === 0) return setReadError('Ce fichier est vide.');
    if (rows.length === 0) return setReadError('Ce fichier n’a qu’une ligne d’en-tête : aucun contact à importer.');
    setLoaded({ fileName: file.name, headers, rows, warning: error && `Le fichier est peut-être mal formé (${error}).` });
    setMapping(guessMapping(headers));
  }

  // The same row schema as the API: the rows announced here are the ones the server will refuse, for the same reasons.
  const preview = useMemo(() => {
    if (!loaded) return null;
    const prepared = loaded.rows.map((row) => ({ line: row.line, payload: rowToPayload(row.cells, mapping) }));
    const failures: Array<{ line: number; reason: string }> = [];
    const emails = new Set<string>();
    let repeated = 0;
    for (const { line, payload } of prepared) {
      const parsed = parseImportRow(payload);
      if ('reason' in parsed) failures.push({ line, reason: frenchReason(parsed.reason) });
      else if (parsed.payload.email) {
        if (emails.has(parsed.payload.email)) repeated++;
        emails.add(parsed.payload.email);
      }
    }
    return { prepared, failures, repeated };
  }, [loaded, mapping]);

  const twice = mappedTwice(mapping);
  const nothingMapped = mapping.every((f) => f === null);

  async function start() {
    if (!preview) return;
    const batches = chunkRows(preview.prepared, MAX_IMPORT_ROWS, MAX_BATCH_BYTES);
    let state: Run = { total: preview.prepared.length, done: 0, created: 0, skipped: 0, errors: [], finished: false };
    setRun(state);
    for (const batch of batches) {
      const summary = await sendBatch(batch.map((r) => r.payload));
      if ('failure' in summary) {
        // Each batch is one transaction: the earlier ones are imported, this one and the rest are not.
        state = { ...state, finished: true, failure: `${summary.failure} Les lignes à partir de la ligne ${batch[0]!.line} n’ont pas été importées.` };
        setRun(state);
        return;
      }
      state = {
        ...state,
        done: state.done + batch.length,
        created: state.created + summary.created,
        skipped: state.skipped + summary.skipped,
        errors: [...state.errors, ...summary.errors.map((e) => ({ line: batch[e.index]!.line, reason: frenchReason(e.reason) }))],
      };
      setRun(state);
    }
    setRun({ ...state, finished: true });
  }

  function reset() {
    setRun(null);
    setLoaded(null);
    setMapping([]);
  }

  if (run) {
    const percent = run.total ? Math.round((run.done / run.total) * 100) : 100;
    return (
      <section className="card" aria-live="polite">
        <h2>{run.finished ? 'Import terminé' : 'Import en cours…'}</h2>
        <div
          className="progress"
          role="progressbar"
          aria-label="Progression de l’import"
          aria-valuemin={0}
          aria-valuemax={run.total}
          aria-valuenow={run.done}
        >
          <span className="progress-bar" style={{ width: `${percent}%` }} />
        </div>
        <p className="muted">
          {formatNumber(run.done)} / {plural(run.total, 'ligne traitée', 'lignes traitées')}
        </p>
        {run.failure && <div className="notice notice-warning">{run.failure}</div>}
        {run.finished && (
          <div className="stack" data-testid="import-summary">
            <dl className="props">
              <dt>Contacts créés</dt>
              <dd data-testid="import-created">{run.created}</dd>
              <dt>Doublons ignorés</dt>
              <dd data-testid="import-skipped">{run.skipped}</dd>
              <dt>Lignes en erreur</dt>
              <dd data-testid="import-errors">{run.errors.length}</dd>
            </dl>
            {run.errors.length > 0 && <FailureTable caption="Lignes refusées" rows={run.errors} />}
            <div className="form-actions">
              <LinkButton variant="primary" href="/contacts">
                Voir les contacts
              </LinkButton>
              <Button onClick={reset}>
                Importer un autre fichier
              </Button>
            </div>
          </div>
        )}
      </section>
    );
  }

  return (
    <>
      <section className="card">
        <h2>1. Fichier</h2>
        <div className="field">
          <label htmlFor="import-file">Fichier CSV</label>
          <input id="import-file" type="file" accept=".csv,text/csv" onChange={(e) => onFile(e.target.files?.[0])} />
          <span className="hint">
            <a href={TEMPLATE} download="modele-contacts.csv">
              Télécharger un modèle
            </a>{' '}
            (toutes les colonnes reconnues).
          </span>
          {readError && <span className="field-error">{readError}</span>}
        </div>
      </section>

      {loaded && preview && (
        <>
          <section className="card">
            <h2>2. Colonnes</h2>
            <p className="muted">
              {loaded.fileName} : {plural(loaded.rows.length, 'ligne', 'lignes')}. Choisissez le champ de chaque colonne ; les colonnes
              ignorées ne sont pas importées.
            </p>
            {loaded.warning && <div className="notice notice-warning">{loaded.warning}</div>}
            <DataTable
              label="Correspondance des colonnes"
              columns={[
                { key: 'colonne_du_fichier', header: 'Colonne du fichier', cell: (header) => header || <span className="muted">(sans titre)</span> },
                {
                  key: 'exemples',
                  header: 'Exemples',
                  className: 'muted',
                  cell: (_, column) => (
                    <>
                      {loaded.rows
                      .slice(0, 3)
                      .map((r) => r.cells[column]?.trim())
                      .filter(Boolean)
                      .join(' · ')}
                    </>
                  ),
                },
                {
                  key: 'champ',
                  header: 'Champ',
                  cell: (header, column) => (
                    <div className="field" data-invalid={mapping[column] !== null && twice.includes(mapping[column]!)}>
                      <select
                        aria-label={`Champ de la colonne ${header || column + 1}`}
                        value={mapping[column] ?? ''}
                        onChange={(e) => setMapping(mapping.map((f, i) => (i === column ? ((e.target.value || null) as ContactField | null) : f)))}
                      >
                        <option value="">— Ignorer —</option>
                        {CONTACT_FIELDS.map((f) => (
                          <option key={f} value={f}>
                            {FIELD_LABELS[f]}
                          </option>
                        ))}
                      </select>
                    </div>
                  ),
                },
              ]}
              rows={loaded.headers}
              rowKey={(_, i) => i}
            />
            {twice.length > 0 && (
              <p className="form-error" role="alert">
                Plusieurs colonnes vont dans le même champ : {twice.map((f) => FIELD_LABELS[f]).join(', ')}. Gardez-en une seule.
              </p>
            )}
          </section>

          <section className="card stack">
            <h2>3. Aperçu</h2>
            <p data-testid="import-preview">
              {plural(preview.prepared.length - preview.failures.length, 'ligne valide', 'lignes valides')},{' '}
              {plural(preview.failures.length, 'ligne sera refusée', 'lignes seront refusées')}.
              {preview.repeated > 0 && ` ${plural(preview.repeated, 'ligne répète', 'lignes répètent')} un e-mail déjà présent plus haut dans le fichier et sera ignorée.`}{' '}
              <span className="muted">Les e-mails déjà connus dans vos contacts seront aussi ignorés.</span>
            </p>
            {preview.failures.length > 0 && <FailureTable caption="Lignes qui seront refusées" rows={preview.failures} />}
            <div className="form-actions">
              <Button variant="primary" disabled={twice.length > 0 || nothingMapped} onClick={start}>
                Importer {plural(preview.prepared.length, 'ligne', 'lignes')}
              </Button>
            </div>
          </section>
        </>
      )}
    </>
  );
}

function FailureTable({ caption, rows }: { caption: string; rows: Array<{ line: number; reason: string }> }) {
  return (
    <DataTable
      label={caption}
      columns={[
        { key: 'line', header: 'Ligne', cell: (r) => r.line },
        { key: 'reason', header: 'Raison', cell: (r) => r.reason },
      ]}
      rows={rows.slice(0, SHOWN)}
      rowKey={(r) => r.line}
      after={
        rows.length > SHOWN && (
          <tr>
            <td />
            <td className="muted">… et {plural(rows.length - SHOWN, 'autre', 'autres')}</td>
          </tr>
        )
      }
    />
  );
}
