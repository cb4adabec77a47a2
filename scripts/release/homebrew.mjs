// The Homebrew formula: merch from its npm package, run by Homebrew's Node, as homebrew-core
// installs npm packages (docs.brew.sh, "Node for Formula Authors": std_npm_args, then link
// libexec's bin). The man page is the release's own asset, a resource of the formula; the
// completions are written by the installed merch (`merch completion bash|zsh|fish`).
import { ASSETS, assetPath, sha256Of } from './assets.mjs';
import { HOMEPAGE, LICENSE, SUMMARY } from './metadata.mjs';

/** A Ruby double-quoted string: JSON's escapes are Ruby's, and `#` must not start an interpolation. */
const ruby = (text) => JSON.stringify(text).replaceAll('#', '\\#');

export function homebrewFormula({ releaseDir, version, downloadBase }) {
  const tarball = ASSETS.npmPackage(version);
  return `# merch ${version}, written by scripts/release/packages.mjs: copy it into a tap's Formula/.
class Merch < Formula
  desc ${ruby(SUMMARY)}
  homepage ${ruby(HOMEPAGE)}
  url ${ruby(`${downloadBase}/${tarball}`)}
  sha256 ${ruby(sha256Of(assetPath(releaseDir, tarball)))}
  license ${ruby(LICENSE)}

  depends_on "node"

  resource "man-page" do
    url ${ruby(`${downloadBase}/${ASSETS.manPage}`)}
    sha256 ${ruby(sha256Of(assetPath(releaseDir, ASSETS.manPage)))}
  end

  def install
    system "npm", "install", *std_npm_args
    bin.install_symlink libexec.glob("bin/*")
    resource("man-page").stage { man1.install ${ruby(ASSETS.manPage)} }
    generate_completions_from_executable(bin/"merch", "completion")
  end

  test do
    assert_equal version.to_s, shell_output("#{bin}/merch --version").strip
  end
end
`;
}
