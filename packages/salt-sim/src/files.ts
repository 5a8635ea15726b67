/**
 * The master's `file_roots: base`. Patches are state files under `patches/`
 * (`state.apply patches.<name>` runs one); `fileserver.file_list` lists them and
 * `cp.get_file_str salt://patches/<name>.sls` reads them (salt/runners/fileserver.py, salt/modules/cp.py).
 */

function patch(name: string, title: string, steps: ReadonlyArray<[string, string]>): [string, string] {
  const body = steps.map(([id, cmd]) => `${id}:\n  cmd.run:\n    - name: ${cmd}\n`).join('\n');
  return [`patches/${name}.sls`, `# Patch: ${title}\n\n${body}`];
}

/** Patch states, one `cmd.run` per step. Names carry no dots: `a.b` in an sls name means `a/b`. */
export const PATCH_FILES: ReadonlyArray<[string, string]> = [
  patch('xz-cve-2024-3094', 'CVE-2024-3094 xz-utils backdoor: pin a clean xz', [
    ['xz_downgrade', 'apt-get install -y --allow-downgrades xz-utils=5.4.1-0.2'],
    ['xz_verify', 'xz --version'],
  ]),
  patch('openssl-cve-2024-5535', 'OpenSSL security update (CVE-2024-5535)', [
    ['openssl_upgrade', 'apt-get install -y --only-upgrade openssl libssl3'],
    ['openssl_restart_services', 'needrestart -r a'],
  ]),
  patch('sudo-cve-2023-42465', 'sudo 1.9.15p5 (CVE-2023-42465)', [
    ['sudo_upgrade', 'apt-get install -y --only-upgrade sudo'],
  ]),
  patch('chrony-pool', 'Point chrony at the internal NTP pool', [
    ['chrony_pool', "sed -i 's/^pool .*/pool ntp.fleet.example.com iburst/' /etc/chrony/chrony.conf"],
    ['chrony_restart', 'systemctl restart chrony'],
  ]),
];

/** States applied by a highstate, and the top file that maps them. */
export const BASE_FILES: ReadonlyArray<[string, string]> = [
  ['top.sls', "base:\n  '*':\n    - common\n"],
  [
    'common/init.sls',
    [
      'base_packages:',
      '  pkg.installed:',
      '    - pkgs: [curl, htop, chrony]',
      '',
      '/etc/motd:',
      '  file.managed:',
      '    - source: salt://common/motd',
      '',
      'refresh_tool_facts:',
      '  cmd.run:',
      '    - name: /usr/local/bin/tool-facts --refresh',
      '',
    ].join('\n'),
  ],
  ['common/motd', 'This host is managed by Salt. Local changes will be overwritten.\n'],
];
