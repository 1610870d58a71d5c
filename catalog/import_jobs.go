package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// Import job states. Running, done and failed are stored; interrupted is
// what State reports for a running job whose heartbeat is too old (the
// process that ran it died).
const (
	ImportRunning     = "running"
	ImportDone        = "done"
	ImportFailed      = "failed"
	ImportInterrupted = "interrupted"
)

// Import job kinds: what the file held.
const (
	ImportProducts = "products"
	ImportReviews  = "reviews"
	ImportPages    = "pages"
)

// ImportStaleAfter is how old the heartbeat of a running job may get
// before the job shows as interrupted. A running import beats at least
// every few seconds (after each batch or 1,000 rows).
const ImportStaleAfter = 2 * time.Minute

// ImportJob is one import (products, reviews or pages) and its progress, shared by every
// replica through the database.
type ImportJob struct {
	bun.BaseModel `bun:"table:import_jobs"`

	ID          int64        `bun:"id,pk,autoincrement"`
	Kind        string       `bun:"kind,notnull"` // products (default), reviews or pages
	FileName    string       `bun:"file_name,notnull"`
	Format      string       `bun:"format,notnull"`
	StartedBy   string       `bun:"started_by,notnull"`
	Status      string       `bun:"status,notnull"`
	Error       string       `bun:"error,notnull"` // why a failed job stopped
	SizeBytes   int64        `bun:"size_bytes,notnull"`
	BytesRead   int64        `bun:"bytes_read,notnull"`
	RowsRead    int64        `bun:"rows_read,notnull"`
	Imported    int64        `bun:"imported,notnull"`
	Updated     int64        `bun:"updated,notnull"`
	Failed      int64        `bun:"failed,notnull"`
	StartedAt   time.Time    `bun:"started_at,notnull"`
	HeartbeatAt time.Time    `bun:"heartbeat_at,notnull"`
	FinishedAt  bun.NullTime `bun:"finished_at"`
}

// ImportJobError is one kept row error of a job; Seq orders them (file
// order) and makes saving them again harmless.
type ImportJobError struct {
	bun.BaseModel `bun:"table:import_job_errors"`

	JobID  int64  `bun:"job_id,pk"`
	Seq    int    `bun:"seq,pk"`
	Line   int    `bun:"line,notnull"`
	SKU    string `bun:"sku,notnull"`
	Reason string `bun:"reason,notnull"`
}

// State is the job's status as shown: a running job whose heartbeat is
// older than staleAfter at now is interrupted.
func (j ImportJob) State(now time.Time, staleAfter time.Duration) string {
	if j.Status == ImportRunning && now.Sub(j.HeartbeatAt) > staleAfter {
		return ImportInterrupted
	}
	return j.Status
}

// MoreErrors is how many failed rows are counted but not kept.
func (j ImportJob) MoreErrors(kept int) int64 { return max(0, j.Failed-int64(kept)) }

// CreateImportJob records a new running job and sets its ID. StartedAt
// (and the first heartbeat) default to now.
func CreateImportJob(ctx context.Context, db bun.IDB, j *ImportJob) error {
	if j.FileName == "" {
		return fmt.Errorf("catalog: create import job: %w: missing file name", ErrInvalid)
	}
	switch j.Kind {
	case "":
		j.Kind = ImportProducts
	case ImportProducts, ImportReviews, ImportPages:
	default:
		return fmt.Errorf("catalog: create import job: %w: unknown kind %q", ErrInvalid, j.Kind)
	}
	if j.StartedAt.IsZero() {
		j.StartedAt = time.Now()
	}
	j.StartedAt = j.StartedAt.UTC()
	j.HeartbeatAt, j.Status = j.StartedAt, ImportRunning
	if _, err := db.NewInsert().Model(j).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("catalog: create import job %s: %w", j.FileName, err)
	}
	return nil
}

// SaveImportJob writes the job's progress (counts, heartbeat, status,
// finish) and appends errs to its kept errors, in one transaction. Errors
// already saved (same Seq) are left as they are, so a retry is harmless.
func SaveImportJob(ctx context.Context, db bun.IDB, j *ImportJob, errs []ImportJobError) error {
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewUpdate().Model(j).WherePK().
			Column("format", "status", "error", "bytes_read", "rows_read", "imported", "updated",
				"failed", "heartbeat_at", "finished_at").
			Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound // pruned meanwhile
		}
		if len(errs) == 0 {
			return nil
		}
		for i := range errs {
			errs[i].JobID = j.ID
		}
		_, err = tx.NewInsert().Model(&errs).On("CONFLICT (job_id, seq) DO NOTHING").Returning("NULL").Exec(ctx)
		return err
	})
	if err != nil {
		return fmt.Errorf("catalog: save import job %d: %w", j.ID, err)
	}
	return nil
}

// GetImportJob returns a job by id.
func GetImportJob(ctx context.Context, db bun.IDB, id int64) (ImportJob, error) {
	var j ImportJob
	err := db.NewSelect().Model(&j).Where("id = ?", id).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return j, fmt.Errorf("catalog: import job %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return j, fmt.Errorf("catalog: import job %d: %w", id, err)
	}
	return j, nil
}

// ImportJobErrors returns up to limit kept errors of a job in file order.
func ImportJobErrors(ctx context.Context, db bun.IDB, id int64, limit int) ([]ImportJobError, error) {
	out := []ImportJobError{}
	err := db.NewSelect().Model(&out).Where("job_id = ?", id).Order("seq").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: import job %d errors: %w", id, err)
	}
	return out, nil
}

// ListImportJobs returns the newest jobs first.
func ListImportJobs(ctx context.Context, db bun.IDB, limit int) ([]ImportJob, error) {
	out := []ImportJob{}
	if err := db.NewSelect().Model(&out).Order("id DESC").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("catalog: list import jobs: %w", err)
	}
	return out, nil
}

// PruneImportJobs deletes every job but the newest keep, with their
// errors, and returns how many jobs it deleted.
func PruneImportJobs(ctx context.Context, db bun.IDB, keep int) (int, error) {
	var n int
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var ids []int64
		err := tx.NewSelect().Model((*ImportJob)(nil)).Column("id").Order("id DESC").
			Offset(int64(keep)).Limit(1).Scan(ctx, &ids)
		if err != nil || len(ids) == 0 {
			return err
		}
		if _, err := tx.NewDelete().Model((*ImportJobError)(nil)).Where("job_id <= ?", ids[0]).Exec(ctx); err != nil {
			return err
		}
		res, err := tx.NewDelete().Model((*ImportJob)(nil)).Where("id <= ?", ids[0]).Exec(ctx)
		if err == nil {
			m, _ := res.RowsAffected()
			n = int(m)
		}
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("catalog: prune import jobs: %w", err)
	}
	return n, nil
}
