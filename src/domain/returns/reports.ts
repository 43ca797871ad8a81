import type { ReportStatusCode, ReturnReportFilters, ReturnReportRecord } from '../../model/returns/report.js';
import type { Tx } from '../../store/store.js';
import { DomainError } from '../errors.js';
import { assertRoom, quotaProblem } from '../quotas.js';
import type { Acting } from '../rules.js';
import type { JobHandler } from '../scheduler.js';
import { organizationOf } from './access.js';
import { checkFilterDates, reportCsv, reportEntries } from './report-rows.js';
import { statusRow } from './statuses.js';

export const GENERATE_RETURN_REPORT = 'generate-return-report';
/** Seconds on the sandbox clock a report waits in the queue, then is generated. */
const REPORT_DELAY = 5;

function setReportStatus(tx: Tx, report: ReturnReportRecord, code: ReportStatusCode, at: number, extra: Partial<ReturnReportRecord> = {}): ReturnReportRecord {
  return tx.update('returnReports', report.id, { ...extra, status_code: code, status_id: statusRow(tx, code).id, updated_at: at });
}

/** How many lines (returned items) a report with these filters would have now. */
export function countEntries(acting: Acting, filters: ReturnReportFilters): number {
  checkFilterDates(filters);
  return reportEntries(acting.rules.store, organizationOf(acting), filters).length;
}

/** A report of the caller's returns: queued now, generated REPORT_DELAY seconds later on the sandbox clock. */
export function createReport(tx: Tx, acting: Acting, name: string, filters: ReturnReportFilters): ReturnReportRecord {
  const organizationId = organizationOf(acting);
  checkFilterDates(filters);
  const total = reportEntries(tx, organizationId, filters).length;
  const { clock, jobs } = acting.rules;
  const now = clock.now();
  // Its file would not fit: refused now rather than failed when it is generated.
  assertRoom(acting.rules, tx, organizationId, 'files');
  const report = tx.insert('returnReports', {
    id: tx.newId(),
    organization_id: organizationId,
    user_id: acting.principal?.userId ?? '',
    name,
    filters,
    status_code: 'report-queued',
    status_id: statusRow(tx, 'report-queued').id,
    progress: { total, processed: 0 },
    created_at: now,
    updated_at: now,
  });
  jobs.schedule(tx, { kind: GENERATE_RETURN_REPORT, subject: report.id, dueMs: (now + REPORT_DELAY) * 1000 });
  return report;
}

/** Reports being generated cannot be deleted (423); a deleted report takes its file along. */
export function deleteReport(tx: Tx, report: ReturnReportRecord): void {
  if (report.status_code === 'report-queued' || report.status_code === 'report-in-progress') {
    throw DomainError.locked('The report is being generated; delete it once it is finished.');
  }
  if (report.file_id) tx.remove('returnReportFiles', report.file_id);
  tx.remove('returnReports', report.id);
}

/** Writes the CSV of the returns the filters select as they are when the job runs. */
export const generateReportJob: JobHandler = {
  apply(tx: Tx, job, rules) {
    const report = tx.get('returnReports', job.subject);
    if (!report || report.status_code !== 'report-queued') return;
    const at = Math.floor(job.due_ms / 1000);
    let entries;
    try {
      entries = reportEntries(tx, report.organization_id, report.filters);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      setReportStatus(tx, report, 'report-failed', at);
      return;
    }
    // The organization's files quota filled up while the report waited: it fails, as production's do.
    if (quotaProblem(rules, tx, report.organization_id, 'files')) {
      setReportStatus(tx, report, 'report-failed', at);
      return;
    }
    const file = tx.insert('returnReportFiles', {
      id: tx.newId(),
      report_id: report.id,
      organization_id: report.organization_id,
      content: reportCsv(tx, entries),
      created_at: at,
    });
    setReportStatus(tx, report, 'report-finished', at, { file_id: file.id, progress: { total: entries.length, processed: entries.length } });
  },
};
