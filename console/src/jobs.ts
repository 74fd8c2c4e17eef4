// Jobs: a live list (polled every 5 s, every 30 s while the tab is hidden) and a job's page: status,
// per-node progress from job details, source-document counts of incremental runs, warnings, failed
// files with their errors, downloads of each output, cancel.
import { useEffect, useState } from 'preact/hooks';
import { call } from './api';
import { download, ErrorBox, html, Section, when } from './ui';

interface Job {
  id: string;
  workflow_id: string;
  workflow_name: string;
  status: string;
  created_at: string;
  runtime: string | null;
  job_type: string;
  input_file_ids: string[] | null;
  output_node_files: { node_id: string; file_id: string; node_type: string; node_subtype: string }[] | null;
}
interface Details {
  processing_status: string;
  message: string | null;
  warnings: string[];
  node_stats: { node_name: string | null; node_type: string | null; node_subtype: string | null; ready: number; in_progress: number; success: number; failure: number }[];
  source_documents?: Record<string, number | boolean>;
  files?: { total: number; done: number; failed: number; in_progress: number };
  files_in_progress?: { file_id: string; document: string | null; node_name: string | null; pages_done: number | null; pages_total: number | null; estimated_seconds_left: number | null }[];
}

/** "12 of 76 pages, about 3 min left" (or what of it is known). */
function pagesText(f: NonNullable<Details['files_in_progress']>[number]): string {
  const pages = f.pages_done === null ? '' : f.pages_total ? `${f.pages_done} of ${f.pages_total} pages` : `${f.pages_done} pages`;
  const left = f.estimated_seconds_left === null ? '' : f.estimated_seconds_left < 90 ? `about ${f.estimated_seconds_left} s left` : `about ${Math.round(f.estimated_seconds_left / 60)} min left`;
  return [pages, left].filter(Boolean).join(', ');
}
const TERMINAL = ['COMPLETED', 'FAILED', 'STOPPED'];

/** Calls `load` now and then every 5 s (30 s while the tab is hidden) until `stop()` says so. */
function usePolling(load: () => Promise<boolean | void>, deps: unknown[]): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let alive = true;
    const tick = async () => {
      const finished = await load().catch(() => false);
      if (!alive || finished === true) return;
      timer = setTimeout(tick, document.hidden ? 30_000 : 5_000);
    };
    const onVisible = () => {
      if (!document.hidden && alive) {
        clearTimeout(timer);
        void tick();
      }
    };
    document.addEventListener('visibilitychange', onVisible);
    void tick();
    return () => {
      alive = false;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, deps);
}

const statusClass = (s: string) => `status s-${s.toLowerCase()}`;

export function JobsList({ go }: { go: (path: string) => void }) {
  const [jobs, setJobs] = useState<Job[] | undefined>();
  const [status, setStatus] = useState('');
  const [error, setError] = useState<unknown>();
  usePolling(async () => {
    try {
      setJobs(await call<Job[]>('api/v1/jobs/', { query: { status: status || undefined } }));
      setError(undefined);
    } catch (e) {
      setError(e);
    }
  }, [status]);
  return html`<${Section} title="Jobs" actions=${html`<label>Status <select value=${status} onChange=${(e: Event) => setStatus((e.target as HTMLSelectElement).value)}>
      ${['', 'SCHEDULED', 'IN_PROGRESS', 'COMPLETED', 'STOPPED', 'FAILED'].map((s) => html`<option value=${s}>${s || 'all'}</option>`)}</select></label>`}>
    <${ErrorBox} error=${error} />
    ${!jobs ? html`<p class="muted">Loading…</p>` : !jobs.length ? html`<p class="muted">No jobs yet: run a workflow, or create a job with the API.</p>` : html`
    <table class="list"><thead><tr><th>Job</th><th>Workflow</th><th>Type</th><th>Status</th><th>Created</th><th>Runtime</th></tr></thead>
      <tbody>${jobs.map(
        (j) => html`<tr key=${j.id}>
          <td><a href=${`#/jobs/${j.id}`} onClick=${(e: Event) => (e.preventDefault(), go(`/jobs/${j.id}`))}>${j.id.slice(0, 8)}</a></td>
          <td>${j.workflow_name}</td><td>${j.job_type}</td><td><span class=${statusClass(j.status)}>${j.status}</span></td>
          <td>${when(j.created_at)}</td><td>${j.runtime ?? ''}</td></tr>`,
      )}</tbody></table>`}
  <//>`;
}

export function JobPage({ id }: { id: string }) {
  const [job, setJob] = useState<Job | undefined>();
  const [details, setDetails] = useState<Details | undefined>();
  const [failed, setFailed] = useState<{ document: string; error: string }[]>([]);
  const [error, setError] = useState<unknown>();
  const [notice, setNotice] = useState<string | undefined>();
  usePolling(async () => {
    try {
      const [j, d, f] = await Promise.all([
        call<Job>(`api/v1/jobs/${id}`),
        call<Details>(`api/v1/jobs/${id}/details`),
        call<{ failed_files: { document: string; error: string }[] }>(`api/v1/jobs/${id}/failed-files`),
      ]);
      setJob(j);
      setDetails(d);
      setFailed(f.failed_files);
      setError(undefined);
      return TERMINAL.includes(j.status);
    } catch (e) {
      setError(e);
    }
  }, [id]);

  async function cancel() {
    try {
      const r = await call<{ message: string }>(`api/v1/jobs/${id}/cancel`, { method: 'POST' });
      setNotice(r.message);
    } catch (e) {
      setError(e);
    }
  }
  async function fetchOutput(fileId: string, nodeId: string) {
    try {
      const res = await call<Response>(`api/v1/jobs/${id}/download`, { query: { file_id: fileId, node_id: nodeId }, raw: true });
      download(`${fileId}.${nodeId}.json`, await res.blob(), 'application/json');
    } catch (e) {
      setError(e);
    }
  }

  return html`<${Section} title=${`Job ${id}`} actions=${job && !TERMINAL.includes(job.status) ? html`<button type="button" onClick=${cancel}>Cancel job</button>` : null}>
    <${ErrorBox} error=${error} />
    ${notice ? html`<p role="status">${notice}</p>` : null}
    ${!job ? html`<p class="muted">Loading…</p>` : html`
      <dl class="facts">
        <dt>Status</dt><dd><span class=${statusClass(job.status)} data-testid="job-status">${job.status}</span>${details ? ` (${details.processing_status})` : ''}</dd>
        <dt>Workflow</dt><dd>${job.workflow_name}</dd>
        <dt>Created</dt><dd>${when(job.created_at)}</dd>
        <dt>Runtime</dt><dd>${job.runtime ?? ''}</dd>
        ${details?.message ? html`<dt>Message</dt><dd>${details.message}</dd>` : null}
      </dl>
      ${details?.files ? html`<p data-testid="job-files">Files: ${details.files.done} done, ${details.files.failed} failed, ${details.files.in_progress} in progress, of ${details.files.total}</p>` : null}
      ${details?.files_in_progress?.length ? html`<h3>In progress</h3><ul class="in-progress">${details.files_in_progress.map((f) => html`<li><strong>${f.document ?? f.file_id.slice(0, 8)}</strong> · ${f.node_name ?? ''}${pagesText(f) ? html` · <span data-testid="file-pages">${pagesText(f)}</span>` : null}
        ${f.pages_total && f.pages_done !== null ? html`<progress max=${f.pages_total} value=${f.pages_done} aria-label=${`Pages read of ${f.document ?? f.file_id}`}></progress>` : null}</li>`)}</ul>` : null}
      ${details?.warnings?.length ? html`<div class="warning" role="status"><strong>Warnings</strong><ul>${details.warnings.map((w) => html`<li>${w}</li>`)}</ul></div>` : null}
      ${details ? html`<h3>Nodes</h3><table class="list"><thead><tr><th>Node</th><th>Type</th><th>Ready</th><th>In progress</th><th>Succeeded</th><th>Failed</th></tr></thead>
        <tbody>${details.node_stats.map((n) => html`<tr><td>${n.node_name ?? ''}</td><td>${n.node_type ?? ''} ${n.node_subtype ?? ''}</td><td>${n.ready}</td><td>${n.in_progress}</td><td>${n.success}</td><td>${n.failure}</td></tr>`)}</tbody></table>` : null}
      ${details?.source_documents ? html`<h3>Source documents</h3><dl class="facts">${Object.entries(details.source_documents).map(([k, v]) => html`<dt>${k.replace(/_/g, ' ')}</dt><dd>${String(v)}</dd>`)}</dl>` : null}
      ${failed.length ? html`<h3>Failed files</h3><ul class="failed">${failed.map((f) => html`<li><strong>${f.document}</strong>: <span class="failed-error">${f.error}</span></li>`)}</ul>` : null}
      ${job.output_node_files?.length ? html`<h3>Outputs</h3><ul>${job.output_node_files.map((o) => html`<li><button type="button" onClick=${() => fetchOutput(o.file_id, o.node_id)}>Download ${o.node_type} ${o.node_subtype} · ${o.file_id.slice(0, 8)}</button></li>`)}</ul>` : null}`}
  <//>`;
}
