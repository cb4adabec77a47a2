// The Scoop manifest: the Windows executable, renamed merch.exe on download (`#/merch.exe`),
// with its hash. No checkver/autoupdate: the release command writes a new manifest for each
// release, from the assets it has just built.
import { ASSETS, assetPath, sha256Of } from './assets.mjs';
import { DESCRIPTION, HOMEPAGE, LICENSE } from './metadata.mjs';

export function scoopManifest({ releaseDir, version, downloadBase }) {
  const manifest = {
    version,
    description: DESCRIPTION,
    homepage: HOMEPAGE,
    license: LICENSE,
    architecture: {
      '64bit': {
        url: `${downloadBase}/${ASSETS.windowsX64}#/merch.exe`,
        hash: sha256Of(assetPath(releaseDir, ASSETS.windowsX64)),
      },
    },
    bin: 'merch.exe',
  };
  return `${JSON.stringify(manifest, null, 4)}\n`; // Scoop's buckets indent by four
}
