// The winget manifests, multi-file format at ManifestVersion 1.6.0: the oldest that has all
// merch needs (a portable installer and its Commands), so that winget clients from 1.6 on
// read them. The Windows executable is installed as is, as `merch` on the PATH.
import { stringify } from 'yaml';
import { ASSETS, assetPath, sha256Of } from './assets.mjs';
import { AUTHORS, DESCRIPTION, HOMEPAGE, LICENSE, SUMMARY, WINGET_ID } from './metadata.mjs';

export const WINGET_MANIFEST_VERSION = '1.6.0';

/** The three files, by name: `<Id>.yaml`, `<Id>.installer.yaml`, `<Id>.locale.en-US.yaml`. */
export function wingetManifests({ releaseDir, version, downloadBase }) {
  const common = { PackageIdentifier: WINGET_ID, PackageVersion: version };
  const end = { ManifestVersion: WINGET_MANIFEST_VERSION };
  // The first line names the schema for editors (yaml-language-server), as wingetcreate writes it.
  const file = (type, fields) => `# yaml-language-server: $schema=https://aka.ms/winget-manifest.${type}.${WINGET_MANIFEST_VERSION}.schema.json\n${stringify({ ...common, ...fields, ManifestType: type, ...end })}`;
  return {
    [`${WINGET_ID}.yaml`]: file('version', { DefaultLocale: 'en-US' }),
    [`${WINGET_ID}.installer.yaml`]: file('installer', {
      InstallerType: 'portable',
      Commands: ['merch'],
      Installers: [
        {
          Architecture: 'x64',
          InstallerUrl: `${downloadBase}/${ASSETS.windowsX64}`,
          InstallerSha256: sha256Of(assetPath(releaseDir, ASSETS.windowsX64)).toUpperCase(),
        },
      ],
    }),
    [`${WINGET_ID}.locale.en-US.yaml`]: file('defaultLocale', {
      PackageLocale: 'en-US',
      Publisher: AUTHORS,
      PackageName: 'merch',
      PackageUrl: HOMEPAGE,
      License: LICENSE,
      LicenseUrl: `${HOMEPAGE}/blob/v${version}/LICENSE`,
      ShortDescription: SUMMARY,
      Description: DESCRIPTION,
      Moniker: 'merch',
    }),
  };
}
