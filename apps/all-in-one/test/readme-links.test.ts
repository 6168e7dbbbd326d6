import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

// Every relative link in the repository's Markdown opens a file of the repository: a clone has
// nothing outside it (issue 28: the README linked ../shared/runtime-contract.md).
const ROOT = path.join(__dirname, '..', '..', '..');
const markdownFiles = execFileSync('git', ['ls-files', '*.md'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);

function relativeLinks(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  const links = [...text.matchAll(/\]\(([^)\s]+)\)/g), ...text.matchAll(/`(\.\.\/[^`\s]+\.md)`/g)].map((match) => match[1]!);
  return links.filter((link) => !/^[a-z]+:/i.test(link) && !link.startsWith('#')).map((link) => link.split('#')[0]!);
}

describe('links in the documentation', () => {
  it('are found', () => {
    expect(markdownFiles).toContain('README.md');
    expect(relativeLinks('README.md').length).toBeGreaterThan(3);
  });

  it.each(markdownFiles)('%s links only to files of the repository', (file) => {
    const broken = relativeLinks(file).filter((link) => {
      const target = path.resolve(ROOT, path.dirname(file), link);
      return !target.startsWith(`${ROOT}${path.sep}`) || !existsSync(target);
    });
    expect(broken).toEqual([]);
  });
});
