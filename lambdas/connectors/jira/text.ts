// The text of a Jira issue, as the platform's JiraDownloader.form_templated_string writes it: id and
// key, project, the dropdown fields (type, status, priority, assignee, reporter, labels,
// components), subtasks (empty, as the platform's), comments (author and body), then summary,
// description and attachment links; parts separated by blank lines, columns by five spaces. A field
// the issue lacks is written empty (the platform's FieldGetter). Description and comment bodies are
// the REST API v2 strings (wiki markup).

const C_SEP = ' '.repeat(5);
const R_SEP = '\n';

type Named = { name?: string; key?: string; displayName?: string; accountId?: string; emailAddress?: string } | null | undefined;

export interface JiraIssue {
  id: string;
  key: string;
  fields?: {
    summary?: string | null;
    description?: string | null;
    created?: string;
    updated?: string;
    project?: Named;
    issuetype?: Named;
    status?: Named;
    priority?: Named;
    assignee?: Named;
    reporter?: Named;
    labels?: string[] | null;
    components?: { name?: string }[] | null;
    comment?: { comments?: { author?: Named; body?: string | null }[] } | null;
    attachment?: { id: string; filename: string; created?: string; mimeType?: string; self?: string; size?: number }[] | null;
  };
}

const s = (v: unknown) => (v === undefined || v === null ? '' : String(v));

export function issueText(issue: JiraIssue): string {
  const f = issue.fields ?? {};
  const ids = `IssueID_IssueKey:${issue.id}${C_SEP}${issue.key}${R_SEP}`;
  const project = f.project ? `ProjectID_Key:${s(f.project.key)}${C_SEP}${s(f.project.name)}${R_SEP}` : '';
  const dropdown = [
    `IssueType:${s(f.issuetype?.name)}`,
    `Status:${s(f.status?.name)}`,
    `Priority:${s(f.priority?.name)}`,
    `AssigneeID_Name:${s(f.assignee?.accountId)}${C_SEP}${s(f.assignee?.displayName)}`,
    `ReporterAdr_Name:${s(f.reporter?.emailAddress)}${C_SEP}${s(f.reporter?.displayName)}`,
    `Labels:${(f.labels ?? []).join(C_SEP)}`,
    `Components:${(f.components ?? []).map((c) => s(c.name)).join(C_SEP)}`,
  ].join(`${R_SEP}${R_SEP}`);
  const subtasks = '';
  const comments = (f.comment?.comments ?? []).map((c) => `${s(c.author?.displayName)}${C_SEP}${s(c.body)}${R_SEP}`).join(C_SEP);
  const text = [s(f.summary), s(f.description), (f.attachment ?? []).map((a) => s(a.self)).join(C_SEP)].join(`${R_SEP}${R_SEP}`);
  return [ids, project, dropdown, subtasks, comments, text].join('\n\n\n');
}
