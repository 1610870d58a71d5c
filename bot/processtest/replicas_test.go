package processtest

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"shopbot/bot/internal/servetest"
	"strings"
	"syscall"
	"testing"
	"time"
)

// process is a `shopbot serve` child process.
type process struct {
	cmd            *exec.Cmd
	base           string
	stdout, stderr *servetest.Buffer
	exited         chan error
}

// startProcesses starts n `shopbot serve` in dir with the README's
// defaults (no DATABASE_URL: sqlite:shopbot.db in the working directory),
// all before any is ready, and waits until each listens.
// readyRE is the banner's last line.
var readyRE = regexp.MustCompile(`Ready in \S+\.`)

func startProcesses(t *testing.T, dir string, n int) []*process {
	t.Helper()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DATABASE_URL=") && !strings.HasPrefix(kv, "ADMIN_PASSWORD=") {
			env = append(env, kv)
		}
	}
	env = append(env, "HTTP_ADDR=127.0.0.1:0") // the default port may be taken on a shared machine
	ps := make([]*process, n)
	for i := range ps {
		ps[i] = launchProcess(t, dir, env)
	}
	for _, p := range ps {
		p.waitListening(t)
	}
	return ps
}

// launchProcess starts `shopbot serve` in dir with env, copying its
// output for the test to read, and stops it at the test's end; it does
// not wait for it to listen.
func launchProcess(t *testing.T, dir string, env []string) *process {
	t.Helper()
	p := &process{cmd: exec.Command(shopbotBinary(t), "serve"), stdout: &servetest.Buffer{}, stderr: &servetest.Buffer{}, exited: make(chan error, 1)}
	p.cmd.Dir, p.cmd.Env, p.cmd.Stderr = dir, env, p.stderr
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			p.stdout.Write([]byte(sc.Text() + "\n"))
		}
		p.exited <- p.cmd.Wait()
	}()
	t.Cleanup(func() { p.stop(t) })
	return p
}

func (p *process) waitListening(t *testing.T) {
	t.Helper()
	p.base = "http://" + p.waitPrinted(t, servetest.AddrRE, 20*time.Second)[1]
}

// waitPrinted waits until the process has printed a line matching re and
// returns the match.
func (p *process) waitPrinted(t *testing.T, re *regexp.Regexp, within time.Duration) []string {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		if m := re.FindStringSubmatch(p.stdout.String()); m != nil {
			return m
		}
		select {
		case err := <-p.exited:
			p.exited <- err
			t.Fatalf("shopbot exited: %v\nstderr: %s", err, p.stderr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing matching %q printed; stdout: %s\nstderr: %s", re, p.stdout, p.stderr)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// stop sends SIGTERM and expects a clean exit.
func (p *process) stop(t *testing.T) {
	t.Helper()
	_ = p.cmd.Process.Signal(syscall.SIGTERM) // fails harmlessly if it has exited
	select {
	case err := <-p.exited:
		if err != nil {
			t.Errorf("exit after SIGTERM: %v; stderr: %s", err, p.stderr)
		}
	case <-time.After(20 * time.Second):
		_ = p.cmd.Process.Kill()
		t.Error("no exit within 20 s of SIGTERM")
	}
}

// TestProcessDefaultsTwoAtOnce: `go run ./bot` as the README says, twice
// at once in one directory: both start on the embedded defaults
// (sqlite:shopbot.db), both become ready, and the demo catalog and the
// admin password are made once.
func TestProcessDefaultsTwoAtOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ps := startProcesses(t, dir, 2)
	outs := make([]string, len(ps))
	for i, p := range ps {
		waitFor200(t, p.base+"/readyz")
		// /readyz may answer before the banner's last line is through the pipe.
		p.waitPrinted(t, readyRE, 20*time.Second)
		if !strings.Contains(p.stdout.String(), "database   sqlite (shopbot.db)") {
			t.Errorf("process %d did not start on the default database:\n%s", i, p.stdout)
		}
		outs[i] = p.stdout.String()
	}
	servetest.CheckStartOutputs(t, outs, "")
	servetest.SignIn(t, ps[0].base, "admin", servetest.GeneratedPassword(t, outs))
	servetest.CheckLoadedOnce(t, servetest.OpenDB(t, "sqlite:"+filepath.Join(dir, "shopbot.db")))
}
