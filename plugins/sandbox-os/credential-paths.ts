/**
 * What the sandbox makes unreadable by default: where tools keep credentials, relative to the home
 * directory the kernel was given. One entry per line, a trailing `/` for a directory (hidden whole,
 * so files the tool adds later are hidden too), each with where it comes from: the tool's own
 * documentation naming the file (or its source, where the docs do not). A missing path costs
 * nothing (no mount is made). The user adds more with `sandbox.deny_read`.
 *
 * Decisions, beyond plain credential files:
 * - Shell and REPL histories are hidden: commands typed with a token in them (`export X=…`,
 *   `curl -H "Authorization: …"`, `mysql -p…`) stay there, and no build reads a history.
 * - Shell startup files are hidden (`~/.bashrc`, `~/.zshrc`, `~/.profile`, fish's config…): quick-start
 *   guides tell users to put `export …_API_KEY=` there, and a command's non-interactive `bash -c`
 *   reads none of them (bubblewrap is started with `--norc`), so hiding them costs builds nothing.
 * - Browser profiles are hidden: cookies are live sessions, and saved passwords are only as safe as
 *   the keyring (Chromium's "basic" store on Linux uses a fixed key). Test browsers (Playwright,
 *   Puppeteer) make their own profiles.
 * - Whole directories where a tool keeps little else (`~/.aws`, `~/.config/gh`); single files where
 *   the directory also holds what builds need (`~/.cargo` has the registry cache and installed
 *   binaries, `~/.m2` the Maven repository, `~/.gradle` its caches, `~/.ansible` its collections).
 * - AI tools' and MewCode's own directories: every entry but what a command may need to run
 *   (skills' scripts, agent and command definitions), see HIDDEN_EXCEPT.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';

export const CREDENTIAL_PATHS: readonly string[] = [
  // --- Secrets tools and keys
  '.ssh/', // OpenSSH keys, agent sockets, known_hosts: ssh(1) FILES, https://man.openbsd.org/ssh#FILES
  '.gnupg/', // GnuPG keyrings and agent sockets: https://www.gnupg.org/documentation/manuals/gnupg/GPG-Configuration.html
  '.password-store/', // pass: "~/.password-store" by default, https://www.passwordstore.org/ (pass(1) FILES)
  '.config/age/', // age keys by convention (age-keygen -o); sops reads $XDG_CONFIG_HOME/sops/age/keys.txt below
  '.config/sops/', // sops: age keys at ~/.config/sops/age/keys.txt, https://github.com/getsops/sops#encrypting-using-age
  '.vault-token', // HashiCorp Vault token helper: https://developer.hashicorp.com/vault/docs/commands/token-helper
  '.config/op/', // 1Password CLI config and session: https://developer.1password.com/docs/cli/config-directories/
  '.op/', // 1Password CLI v1 config directory (same page, legacy location)
  '.1password/', // 1Password SSH agent socket ~/.1password/agent.sock: https://developer.1password.com/docs/ssh/agent/config/
  '.config/Bitwarden CLI/', // Bitwarden CLI data.json (session, encrypted vault): https://bitwarden.com/help/data-storage/
  '.local/share/keyrings/', // GNOME Keyring files: https://wiki.gnome.org/Projects/GnomeKeyring (and keyrings(7))
  '.local/share/kwalletd/', // KDE Wallet files: https://userbase.kde.org/KDE_Wallet_Manager
  'Library/Keychains/', // macOS login keychain: https://support.apple.com/guide/keychain-access/
  '.vault_pass.txt', // Ansible vault password file as in its docs' examples: https://docs.ansible.com/ansible/latest/vault_guide/vault_managing_passwords.html
  '.vault_pass', // the same, the other name the Ansible docs use
  '.netrc', // curl, git, ftp, heroku login: https://everything.curl.dev/usingcurl/netrc
  '.authinfo', // Emacs auth-source, .netrc format (also read by Gnus, magit forge): https://www.gnu.org/software/emacs/manual/html_mono/auth.html
  '.authinfo.gpg', // the same, encrypted (auth-source's default first choice, same page)
  '.msmtprc', // msmtp SMTP passwords: https://marlam.de/msmtp/msmtp.html#Configuration-files
  '.config/msmtp/', // msmtp, XDG location of the same file (same page)
  '.wgetrc', // wget `password=`/`http_password=`: https://www.gnu.org/software/wget/manual/html_node/Startup-File.html
  '.curlrc', // curl's config, `user = name:password`: https://everything.curl.dev/cmdline/configfile
  '.config/.curlrc', // curl ≥ 7.73 reads it from XDG_CONFIG_HOME too (same page)
  '.gist', // the gist gem's OAuth token: https://github.com/defunkt/gist#login
  '.infisical/', // Infisical CLI login: https://infisical.com/docs/cli/overview
  '.fetchmailrc', // fetchmail server passwords: https://www.fetchmail.info/fetchmail-man.html#the-run-control-file
  '.env', // a dotenv file in the home: the usual place for tokens a user exports by hand
  '.git-credentials', // git credential-store default file: https://git-scm.com/docs/git-credential-store#_files
  '.config/git/credentials', // git credential-store, XDG location (same page)
  '.subversion/auth/', // Subversion's cached passwords: https://svnbook.red-bean.com/en/1.7/svn.serverconfig.netmodel.html#svn.serverconfig.netmodel.credcache
  '.Xauthority', // X11 cookies (any client could drive the user's display): https://www.x.org/releases/X11R7.7/doc/man/man1/xauth.1.xhtml
  '.config/keybase/', // Keybase device keys and session: https://book.keybase.io/docs/files (config dir)
  '.config/solana/', // Solana CLI keypair id.json (a wallet's private key): https://docs.solanalabs.com/cli/wallets/file-system
  '.ethereum/keystore/', // geth account keystore: https://geth.ethereum.org/docs/fundamentals/account-management
  '.electrum/wallets/', // Electrum wallet files: https://electrum.readthedocs.io/en/latest/faq.html#where-is-my-wallet-file-located
  '.google_authenticator', // libpam-google-authenticator's TOTP secret and scratch codes: https://github.com/google/google-authenticator-libpam#setting-up-a-user
  '.minisign/', // minisign's secret key ~/.minisign/minisign.key: https://jedisct1.github.io/minisign/
  '.android/adbkey', // adb's private key, which devices trust to debug them (not ~/.android's debug.keystore, which builds sign with): https://developer.android.com/tools/adb
  '.appstoreconnect/private_keys/', // App Store Connect API keys (AuthKey_*.p8), where altool and notarytool look: `xcrun altool --help` (--apiKey), https://developer.apple.com/documentation/appstoreconnectapi/creating-api-keys-for-app-store-connect-api
  '.private_keys/', // the same keys, another directory altool searches (same help text)
  'private_keys/', // the same keys, the third directory altool searches (same help text)
  '.config/syncthing/', // Syncthing's device key (key.pem) and config.xml with the GUI password and API key: https://docs.syncthing.net/users/config.html
  '.local/state/syncthing/', // Syncthing's location of the same since v1.27 (same page)
  'Library/Application Support/Syncthing/', // the same on macOS (same page)

  // --- Cloud CLIs
  '.aws/', // AWS CLI credentials and config (SSO cache too): https://docs.aws.amazon.com/cli/latest/userguide/cli-configure-files.html
  '.config/gcloud/', // Google Cloud SDK credentials, ADC file: https://cloud.google.com/sdk/docs/configurations
  '.azure/', // Azure CLI tokens (msal_token_cache): https://learn.microsoft.com/cli/azure/azure-cli-configuration
  '.oci/', // Oracle Cloud CLI config and API keys: https://docs.oracle.com/iaas/Content/API/Concepts/sdkconfig.htm
  '.config/doctl/', // DigitalOcean doctl config.yaml with access-token: `doctl --config` default, https://docs.digitalocean.com/reference/doctl/
  '.config/linode-cli', // Linode CLI config with token: https://www.linode.com/docs/products/tools/cli/guides/install/
  '.linode-cli', // Linode CLI, legacy location (same page)
  '.config/hcloud/', // Hetzner hcloud cli.toml with context tokens: https://github.com/hetznercloud/cli/blob/main/docs/reference/manual/hcloud_context.md
  '.config/scw/', // Scaleway CLI config.yaml with secret_key: https://www.scaleway.com/en/docs/scaleway-cli/reference-content/scaleway-configuration-file/
  '.bluemix/', // IBM Cloud CLI config and tokens: https://cloud.ibm.com/docs/cli?topic=cli-ibmcloud_env_var
  '.config/heroku/', // Heroku CLI config (the token itself is in ~/.netrc): https://devcenter.heroku.com/articles/authentication
  '.fly/', // flyctl config.yml with access_token: https://fly.io/docs/flyctl/ (`fly auth token` reads it)
  '.local/share/com.vercel.cli/', // Vercel CLI auth.json: https://vercel.com/docs/project-configuration/global-configuration
  'Library/Application Support/com.vercel.cli/', // the same on macOS (same page)
  '.config/netlify/', // Netlify CLI config.json with tokens: https://cli.netlify.com/ (global config, XDG location)
  '.netlify/', // Netlify CLI, older location (same)
  '.wrangler/', // Cloudflare wrangler OAuth tokens, legacy ~/.wrangler/config/default.toml: https://developers.cloudflare.com/workers/wrangler/
  '.config/.wrangler/', // wrangler, XDG location of the same config (workers-sdk getGlobalWranglerConfigPath)
  '.config/openstack/', // OpenStack clouds.yaml with passwords: https://docs.openstack.org/python-openstackclient/latest/configuration/
  '.aliyun/', // Alibaba Cloud CLI config.json with AccessKey pairs: https://www.alibabacloud.com/help/en/cli/configure-credentials
  '.tccli/', // Tencent Cloud CLI *.credential files: https://www.tencentcloud.com/document/product/1013/33465
  '.mc/config.json', // MinIO client aliases with access and secret keys: https://min.io/docs/minio/linux/reference/minio-mc.html
  '.config/ngrok/', // ngrok agent ngrok.yml with its authtoken: https://ngrok.com/docs/agent/config/
  '.ngrok2/', // ngrok v2's location of the same file (same page, legacy)
  '.s3cfg', // s3cmd access and secret keys: https://s3tools.org/kb/item14.htm
  '.boto', // boto / gsutil credentials: https://cloud.google.com/storage/docs/boto-gsutil
  '.config/rclone/', // rclone.conf with remote credentials: https://rclone.org/docs/#config-config-file
  '.terraform.d/credentials.tfrc.json', // `terraform login` token: https://developer.hashicorp.com/terraform/cli/commands/login
  '.terraformrc', // Terraform CLI config, may hold `credentials` blocks: https://developer.hashicorp.com/terraform/cli/config/config-file
  '.tofurc', // OpenTofu CLI config, same format: https://opentofu.org/docs/cli/config/config-file/
  '.pulumi/credentials.json', // Pulumi access tokens: https://www.pulumi.com/docs/iac/concepts/state-and-backends/
  '.supabase/', // Supabase CLI access-token: https://supabase.com/docs/reference/cli/supabase-login
  '.railway/', // Railway CLI config.json with token: https://docs.railway.com/guides/cli
  '.config/stripe/', // Stripe CLI config.toml with keys: https://docs.stripe.com/cli/login
  '.sentryclirc', // sentry-cli auth token: https://docs.sentry.io/cli/configuration/
  '.databrickscfg', // Databricks CLI tokens: https://docs.databricks.com/dev-tools/cli/profiles.html
  '.snowsql/config', // SnowSQL connections with passwords: https://docs.snowflake.com/en/user-guide/snowsql-config
  '.snowflake/', // Snowflake CLI connections.toml: https://docs.snowflake.com/developer-guide/snowflake-cli/connecting/configure-connections
  '.dbt/profiles.yml', // dbt warehouse credentials: https://docs.getdbt.com/docs/core/connect-data-platform/profiles.yml
  '.kaggle/', // Kaggle API kaggle.json: https://github.com/Kaggle/kaggle-api#api-credentials
  '.cache/huggingface/token', // Hugging Face token: https://huggingface.co/docs/huggingface_hub/package_reference/environment_variables#hfhome
  '.huggingface/token', // Hugging Face, older location (same page, legacy)
  '.config/configstore/', // tokens of npm-based CLIs (firebase-tools, snyk…) via the configstore package: https://github.com/yeoman/configstore
  '.awsvault/', // aws-vault's file backend (encrypted AWS keys and sessions): https://github.com/99designs/aws-vault/blob/master/USAGE.md#file
  '.saml2aws', // saml2aws IdP accounts (username, URL; the password where no keychain serves): https://github.com/Versent/saml2aws#configuring-idp-accounts
  '.okta/', // Okta CLI okta.yaml with an API token: https://github.com/okta/okta-cli
  '.rancher/', // Rancher CLI cli2.json with bearer tokens: https://ranchermanager.docs.rancher.com/reference-guides/cli-with-rancher/rancher-cli
  '.config/turso/', // Turso CLI settings.json with its access token: https://github.com/tursodatabase/turso-cli#readme
  'Library/Application Support/turso/', // the same on macOS (same page)
  '.config/neonctl/', // Neon CLI credentials.json: https://neon.com/docs/reference/cli-auth
  '.config/neon/', // the newer `neon` CLI's credentials.json: https://neon.com/docs/cli/login
  '.config/planetscale/', // PlanetScale pscale access-token: https://planetscale.com/docs/reference/planetscale-cli
  '.render/', // Render CLI cli.yaml with its token: https://render.com/docs/cli
  '.vultr-cli.yaml', // vultr-cli api-key: https://github.com/vultr/vultr-cli#configuration
  '.config/vultr-cli.yaml', // vultr-cli, XDG location (same page)
  '.civo.json', // Civo CLI API keys: https://github.com/civo/cli#setting-up-your-api-key
  '.config/exoscale/', // Exoscale exo CLI exoscale.toml with API secrets: https://community.exoscale.com/documentation/tools/exoscale-command-line-interface/
  '.config/attic/', // Attic (Nix binary cache) client config.toml with cache tokens: https://docs.attic.rs/tutorial.html
  '.config/kaggle/', // Kaggle API kaggle.json, the XDG location newer versions use: https://github.com/Kaggle/kaggle-api#api-credentials
  '.modal.toml', // Modal token_id and token_secret: https://modal.com/docs/reference/modal.config
  '.runpod/', // RunPod runpodctl / SDK config.toml with the API key: https://docs.runpod.io/runpodctl/overview
  '.config/vastai/', // Vast.ai CLI vast_api_key: https://docs.vast.ai/cli/authentication
  '.vast_api_key', // Vast.ai CLI, legacy location (same page)
  '.config/gspread/', // gspread service_account.json and authorized_user.json: https://docs.gspread.org/en/latest/oauth2.html
  '.expo/state.json', // Expo CLI session secret: https://docs.expo.dev/more/expo-cli/#authentication

  // --- Containers and Kubernetes
  '.docker/', // Docker config.json auths, Docker Desktop socket: https://docs.docker.com/reference/cli/docker/#configuration-files
  '.config/containers/auth.json', // Podman/Buildah/Skopeo auth: https://github.com/containers/image/blob/main/docs/containers-auth.json.5.md
  '.kube/', // kubectl kubeconfig with tokens and client keys: https://kubernetes.io/docs/concepts/configuration/organize-cluster-access-kubeconfig/
  '.minikube/', // minikube client certificates and keys: https://minikube.sigs.k8s.io/docs/handbook/config/
  '.config/helm/', // Helm registry/config.json and repositories.yaml passwords: https://helm.sh/docs/helm/helm/ (XDG paths)
  '.colima/', // Colima's Docker socket ~/.colima/default/docker.sock: https://github.com/abiosoft/colima/blob/main/docs/FAQ.md
  '.lima/', // Lima instances' sockets and SSH keys: https://lima-vm.io/docs/dev/internals/
  '.rd/', // Rancher Desktop's ~/.rd/docker.sock: https://docs.rancherdesktop.io/references/architecture/
  '.orbstack/', // OrbStack's ~/.orbstack/run/docker.sock: https://docs.orbstack.dev/docker/
  '.local/share/containers/podman/machine/', // Podman machine sockets and SSH keys: https://docs.podman.io/en/latest/markdown/podman-machine.1.html

  // --- Package registries
  '.npmrc', // npm auth tokens: https://docs.npmjs.com/cli/configuring-npm/npmrc
  '.yarnrc', // Yarn 1 config (registry auth): https://classic.yarnpkg.com/en/docs/yarnrc
  '.yarnrc.yml', // Yarn Berry npmAuthToken: https://yarnpkg.com/configuration/yarnrc#npmAuthToken
  '.pypirc', // PyPI upload tokens: https://packaging.python.org/specifications/pypirc/
  '.config/pip/pip.conf', // pip index URLs with credentials: https://pip.pypa.io/en/stable/topics/configuration/
  '.pip/pip.conf', // pip, legacy location (same page)
  '.config/pypoetry/auth.toml', // Poetry repository credentials (when no keyring): https://python-poetry.org/docs/repositories/#configuring-credentials
  '.gem/credentials', // RubyGems API key: https://guides.rubygems.org/command-reference/#gem-signin
  '.local/share/gem/credentials', // RubyGems, XDG location (same)
  '.bundle/config', // Bundler per-user source credentials: https://bundler.io/man/bundle-config.1.html
  '.cargo/credentials.toml', // Cargo registry tokens: https://doc.rust-lang.org/cargo/reference/config.html#credentials
  '.cargo/credentials', // Cargo, pre-1.39 name (same page)
  '.nuget/NuGet/NuGet.Config', // NuGet packageSourceCredentials: https://learn.microsoft.com/nuget/consume-packages/configuring-nuget-behavior
  '.config/NuGet/NuGet.Config', // NuGet on Linux/macOS (same page)
  '.config/composer/auth.json', // Composer auth: https://getcomposer.org/doc/articles/authentication-for-private-packages.md
  '.composer/auth.json', // Composer, legacy COMPOSER_HOME (same page)
  '.gradle/gradle.properties', // Gradle user properties (publishing credentials): https://docs.gradle.org/current/userguide/build_environment.html
  '.m2/settings.xml', // Maven server passwords: https://maven.apache.org/settings.html#servers
  '.m2/settings-security.xml', // Maven master password: https://maven.apache.org/guides/mini/guide-encryption.html
  '.ivy2/.credentials', // sbt/Ivy publish credentials: https://www.scala-sbt.org/1.x/docs/Publishing.html#Credentials
  '.sbt/credentials', // sbt credentials file as in the sbt docs (same page)
  '.config/hub', // hub (GitHub) oauth_token: https://hub.github.com/hub.1.html (CONFIGURATION)
  '.pub-cache/credentials.json', // Dart pub credentials: https://dart.dev/tools/pub/cmd/pub-token
  '.hex/hex.config', // Hex (Elixir) API key, `mix hex.user auth` (not ~/.hex's package cache): https://hexdocs.pm/hex/Mix.Tasks.Hex.Config.html
  '.cabal/config', // cabal Hackage username and password (not ~/.cabal/packages): https://cabal.readthedocs.io/en/stable/config.html
  '.config/cabal/config', // cabal, XDG location (same page)
  '.jfrog/jfrog-cli.conf.v6', // JFrog CLI server configurations with access tokens (not its plugins and dependencies): https://docs.jfrog-applications.jfrog.io/jfrog-applications/jfrog-cli/configurations/jfrog-platform-configuration
  '.jfrog/jfrog-cli.conf.v5', // the same, earlier format version
  '.jfrog/jfrog-cli.conf', // the same, first format
  '.config/goreleaser/', // GoReleaser github_token, gitlab_token, gitea_token: https://goreleaser.com/scm/github/
  '.config/dart/pub-credentials.json', // Dart pub, newer XDG location (same page)

  // --- Version control hosts
  '.config/gh/', // GitHub CLI hosts.yml with oauth_token: https://cli.github.com/manual/gh_help_environment
  '.config/glab-cli/', // GitLab CLI config.yml with tokens: https://gitlab.com/gitlab-org/cli#configuration
  '.config/tea/', // Gitea tea config.yml with tokens: https://gitea.com/gitea/tea
  '.config/lab/', // lab (GitLab) lab.toml with its token: https://github.com/zaquestion/lab#configuration
  '.config/hut/', // hut (sourcehut) config with its OAuth token: https://git.sr.ht/~xenrox/hut#configuration
  '.config/github-copilot/', // Copilot hosts.json/apps.json OAuth tokens (copilot.vim and editors): https://github.com/github/copilot.vim
  '.config/Code/User/globalStorage/', // VS Code's extension state and secret storage (state.vscdb: tokens): https://code.visualstudio.com/api/extension-capabilities/common-capabilities#data-storage
  'Library/Application Support/Code/User/globalStorage/', // the same on macOS
  '.config/Code - Insiders/User/globalStorage/', // VS Code Insiders, the same store
  'Library/Application Support/Code - Insiders/User/globalStorage/', // the same on macOS
  '.config/VSCodium/User/globalStorage/', // VSCodium, the same store: https://github.com/VSCodium/vscodium/blob/master/docs/index.md
  'Library/Application Support/VSCodium/User/globalStorage/', // the same on macOS
  '.config/Cursor/User/globalStorage/', // Cursor (a VS Code fork): its state.vscdb holds the account's access and refresh tokens
  'Library/Application Support/Cursor/User/globalStorage/', // the same on macOS
  '.config/Windsurf/User/globalStorage/', // Windsurf (a VS Code fork), the same store
  'Library/Application Support/Windsurf/User/globalStorage/', // the same on macOS
  '.config/filezilla/', // FileZilla sitemanager.xml and recentservers.xml with stored passwords: https://wiki.filezilla-project.org/FileZilla_Client_Configuration

  '.config/JetBrains/', // JetBrains IDEs' options: github.xml, and saved passwords where no keyring serves (c.kdbx): https://www.jetbrains.com/help/idea/reference-ide-settings-password-safe.html
  'Library/Application Support/JetBrains/', // the same on macOS (same page)
  '.config/gitkraken/', // GitKraken's OAuth tokens for GitHub, GitLab…: https://help.gitkraken.com/gitkraken-desktop/gitkraken-desktop-faq/
  '.gitkraken/', // GitKraken, its older location (same page)
  '.cloudflared/', // cloudflared cert.pem, the account's tunnel credentials: https://developers.cloudflare.com/cloudflare-one/connections/connect-networks/do-more-with-tunnels/local-management/tunnel-useful-terms/
  '.wakatime.cfg', // WakaTime api_key: https://wakatime.com/faq#config-file
  '.gitlab-runner/config.toml', // GitLab Runner tokens (a runner run as the user): https://docs.gitlab.com/runner/configuration/advanced-configuration/
  '.circleci/cli.yml', // CircleCI CLI token: https://circleci.com/docs/local-cli/#configure-the-cli
  '.config/cachix/', // Cachix auth token (cachix.dhall): https://docs.cachix.org/getting-started

  '.local/share/mkcert/', // mkcert's CA key (rootCA-key.pem), which the user's browsers trust: https://github.com/FiloSottile/mkcert#installing-the-ca-on-other-systems
  '.pki/nssdb/', // the NSS shared database (Chrome's client-certificate keys on Linux): https://chromium.googlesource.com/chromium/src/+/main/docs/linux/cert_management.md
  '.tsh/', // Teleport tsh keys and certificates: https://goteleport.com/docs/connect-your-client/tsh/
  '.chef/', // Chef Infra credentials and client keys: https://docs.chef.io/workstation/knife_setup/
  '.puppetlabs/', // Puppet agent (non-root) ssl/private_keys: https://www.puppet.com/docs/puppet/8/dirs_confdir.html
  '.step/', // smallstep step/step-ca secrets and keys: https://smallstep.com/docs/step-cli/the-step-command/#step_path
  '.cockroach-certs/', // CockroachDB client keys: https://www.cockroachlabs.com/docs/stable/cockroach-cert
  '.talos/', // talosctl client certificate and key: https://www.talos.dev/latest/reference/cli/
  '.edgerc', // Akamai EdgeGrid client secret: https://techdocs.akamai.com/developer/docs/set-up-authentication-credentials
  '.dogrc', // Datadog dogshell API and application keys: https://github.com/DataDog/datadogpy#dogshell
  '.passwd-s3fs', // s3fs-fuse access and secret keys: https://github.com/s3fs-fuse/s3fs-fuse#examples
  '.b2_account_info', // Backblaze B2 CLI application key: https://www.backblaze.com/docs/cloud-storage-command-line-tools
  '.ossutilconfig', // Alibaba Cloud ossutil AccessKey: https://www.alibabacloud.com/help/en/oss/developer-reference/configure-ossutil
  '.ovh.conf', // OVH API application secret and consumer key: https://github.com/ovh/python-ovh#configuration
  '.config/fastly/', // Fastly CLI API tokens: https://www.fastly.com/documentation/reference/cli/
  '.newrelic/', // New Relic CLI API key profiles: https://github.com/newrelic/newrelic-cli
  '.config/argocd/', // Argo CD CLI auth token: https://argo-cd.readthedocs.io/en/stable/user-guide/commands/argocd_login/
  '.doppler/', // Doppler CLI token: https://docs.doppler.com/docs/cli
  '.travis/', // Travis CI CLI token: https://github.com/travis-ci/travis.rb#configuration
  '.twilio-cli/', // Twilio CLI API keys: https://www.twilio.com/docs/twilio-cli/general-usage/profiles
  '.influxdbv2/', // influx CLI tokens (configs): https://docs.influxdata.com/influxdb/v2/reference/cli/influx/config/
  '.hgrc', // Mercurial [auth] passwords: https://www.mercurial-scm.org/doc/hgrc.5.html#auth
  '.config/vdirsyncer/', // vdirsyncer config with CalDAV/CardDAV passwords: https://vdirsyncer.pimutils.org/en/stable/tutorial.html
  '.bunfig.toml', // Bun's global bunfig: registry tokens (`[install.scopes]` token): https://bun.sh/docs/runtime/bunfig
  '.config/.bunfig.toml', // the same, at $XDG_CONFIG_HOME (same page)
  '.config/nix/nix.conf', // Nix user configuration: `access-tokens` for GitHub and others: https://nix.dev/manual/nix/latest/command-ref/conf-file
  '.cf/', // Cloud Foundry CLI config.json: access and refresh tokens: https://docs.cloudfoundry.org/cf-cli/getting-started.html
  '.argocd/', // Argo CD CLI, its legacy config location (the token): https://argo-cd.readthedocs.io/en/stable/user-guide/commands/argocd_login/
  '.config/httpie/sessions/', // HTTPie named sessions: auth headers and cookies: https://httpie.io/docs/cli/named-sessions
  '.rclone.conf', // rclone's legacy config path (remotes' tokens and passwords): https://rclone.org/docs/#config-string
  '.smbcredentials', // mount.cifs credentials file by convention (username/password): https://www.samba.org/~ab/output/htmldocs/manpages-3/mount.cifs.8.html
  '.lftp/', // lftp bookmarks with passwords (set bmk:save-passwords): https://lftp.yar.ru/lftp-man.html
  '.local/share/lftp/', // the same, XDG location (same page)
  'Library/Application Support/ngrok/', // ngrok agent config (authtoken) on macOS: https://ngrok.com/docs/agent/config/

  // --- Messaging and mail apps (a decision: their local storage holds live session tokens and keys)
  '.config/Slack/', // Slack desktop: cookies and local storage with the session token (Electron userData)
  'Library/Application Support/Slack/', // the same on macOS
  '.config/discord/', // Discord desktop: local storage with the account token (Electron userData)
  'Library/Application Support/discord/', // the same on macOS
  '.config/Signal/', // Signal Desktop: config.json holds the message database's key: https://support.signal.org/hc/en-us/articles/360007059752
  'Library/Application Support/Signal/', // the same on macOS (same page)
  '.config/Element/', // Element desktop: session and encryption keys (Electron userData)
  '.local/share/TelegramDesktop/', // Telegram Desktop tdata: the session's keys
  'Library/Application Support/Telegram Desktop/', // the same on macOS
  '.thunderbird/', // Thunderbird profiles: logins.json and key4.db: https://support.mozilla.org/kb/profiles-where-thunderbird-stores-user-data
  'Library/Thunderbird/', // the same on macOS (same page)
  '.muttrc', // mutt `imap_pass`/`smtp_pass`: http://www.mutt.org/doc/manual/#configuration
  '.mutt/', // mutt's folder (its muttrc, often with the passwords, and the header cache): same page
  '.config/mutt/', // mutt, XDG location of the same (same page)
  '.config/neomutt/', // NeoMutt `imap_pass`: https://neomutt.org/guide/configuration
  '.mbsyncrc', // isync/mbsync `Pass`: https://isync.sourceforge.io/mbsync.html
  '.config/isyncrc', // mbsync, XDG location (same page)
  '.offlineimaprc', // OfflineIMAP `remotepass`: https://www.offlineimap.org/doc/offlineimap.html
  '.config/aerc/', // aerc accounts.conf, passwords in the source and outgoing URLs: https://git.sr.ht/~rjarry/aerc/tree/master/item/doc/aerc-accounts.5.scd
  '.config/himalaya/', // Himalaya config.toml (passwords, or the command that prints one): https://github.com/pimalaya/himalaya
  '.purple/', // Pidgin/libpurple accounts.xml, passwords in plain text: https://developer.pidgin.im/wiki/PlainTextPasswords
  '.irssi/', // irssi config: server and SASL passwords: https://irssi.org/documentation/settings/
  '.weechat/', // WeeChat sec.conf (secured data) and server passwords: https://weechat.org/files/doc/stable/weechat_user.en.html#secured_data
  '.config/weechat/', // WeeChat ≥ 3.2, XDG location (same page)

  // --- Databases
  '.pgpass', // PostgreSQL passwords: https://www.postgresql.org/docs/current/libpq-pgpass.html
  '.pg_service.conf', // PostgreSQL service file, may hold passwords: https://www.postgresql.org/docs/current/libpq-pgservice.html
  '.my.cnf', // MySQL client options with password: https://dev.mysql.com/doc/refman/8.0/en/option-files.html
  '.mylogin.cnf', // MySQL login paths (obfuscated, not encrypted): https://dev.mysql.com/doc/refman/8.0/en/mysql-config-editor.html
  '.mongorc.js', // legacy mongo shell startup file, often with auth: https://www.mongodb.com/docs/v4.4/mongo/#mongorc-js-file
  '.mongoshrc.js', // mongosh startup file: https://www.mongodb.com/docs/mongodb-shell/mongoshrc/
  '.mongodb/', // mongosh history and Compass connections: https://www.mongodb.com/docs/mongodb-shell/reference/configure-shell-settings-global/
  '.redisclirc', // redis-cli defaults: https://redis.io/docs/latest/develop/tools/cli/
  '.cassandra/', // cqlsh cqlshrc (credentials) and cqlsh_history: https://cassandra.apache.org/doc/latest/cassandra/managing/tools/cqlsh.html
  '.myclirc', // mycli [alias_dsn] with passwords: https://www.mycli.net/config
  '.config/pgcli/', // pgcli config ([alias_dsn] with passwords) and its history: https://www.pgcli.com/config
  '.config/litecli/', // litecli config and history: https://github.com/dbcli/litecli#readme
  '.usqlpass', // usql password file: https://github.com/xo/usql#passwords

  // --- MewCode's own (every other entry of ~/.mewcode is hidden too, see HIDDEN_EXCEPT; these are named for the record)
  '.mewcode/settings.yaml', // permission rules, hooks with http headers (tokens): plugins/hooks/files.ts
  '.mewcode/settings.yml', // the same, other spelling (sandbox-os/settings.ts reads it)
  '.mewcode/settings.json', // the same, JSON
  '.mewcode/config.yaml', // provider api_key values: config/layers.ts
  '.mewcode/config.yml', // the same, other spelling
  '.mewcode/config.json', // the same, JSON
  '.mewcode/trust.json', // the user's trust decisions: config/trust-store.ts
  '.mewcode/mcp-oauth.json', // MCP servers' OAuth tokens: plugins/mcp/oauth.ts
  '.mewcode/hooks.yaml', // the user's hooks: plugins/hooks/files.ts
  '.mewcode/sessions/', // transcripts of sessions run from the home directory (plugins/session/layout.ts)
  '.mewcode/logs/', // MCP server logs: plugins/mcp/server-log.ts

  // --- AI tools (their directories also hold transcripts; see HIDDEN_EXCEPT for ~/.claude, ~/.codex, ~/.gemini)
  '.claude.json', // Claude Code state: OAuth account, MCP server env: https://docs.anthropic.com/en/docs/claude-code/settings
  '.claude.json.backup', // its backup, written beside it
  '.config/Claude/', // Claude desktop claude_desktop_config.json (MCP env) on Linux: https://modelcontextprotocol.io/quickstart/user
  'Library/Application Support/Claude/', // the same on macOS (same page)
  '.aider.conf.yml', // aider config with api keys: https://aider.chat/docs/config/aider_conf.html
  '.continue/', // Continue config.json with provider keys: https://docs.continue.dev/reference
  '.cursor/mcp.json', // Cursor global MCP servers (env tokens): https://docs.cursor.com/context/model-context-protocol
  '.codeium/', // Codeium/Windsurf config and tokens: https://docs.windsurf.com/windsurf/cascade/mcp
  '.config/io.datasette.llm/', // the llm tool's API keys (keys.json): https://llm.datasette.io/en/stable/setup.html#api-key-management
  '.local/share/opencode/', // opencode's provider keys and OAuth (auth.json): https://opencode.ai/docs/
  '.qwen/', // Qwen Code OAuth credentials: https://github.com/QwenLM/qwen-code
  '.ollama/id_ed25519', // Ollama's ollama.com signing key: https://github.com/ollama/ollama/blob/main/docs/faq.md
  '.kiro/settings/mcp.json', // Kiro user MCP servers (env tokens): https://kiro.dev/docs/mcp/configuration/
  '.config/Code/User/mcp.json', // VS Code user MCP servers (env, headers): https://code.visualstudio.com/docs/copilot/customization/mcp-servers
  '.config/Code/User/settings.json', // VS Code user settings: an `mcp` section (older releases), extensions' tokens (same page)
  '.config/Code - Insiders/User/mcp.json', // the same, VS Code Insiders
  '.config/Code - Insiders/User/settings.json', // the same
  '.config/VSCodium/User/mcp.json', // the same, VSCodium
  '.config/VSCodium/User/settings.json', // the same
  'Library/Application Support/Code/User/mcp.json', // the same on macOS
  'Library/Application Support/Code/User/settings.json', // the same
  '.config/zed/settings.json', // Zed: context servers' env and language model settings: https://zed.dev/docs/ai/mcp
  '.config/opencode/', // opencode's global config (provider apiKey options, MCP environment): https://opencode.ai/docs/config/
  '.config/aichat/', // aichat's config.yaml with each client's api_key: https://github.com/sigoden/aichat
  '.config/mods/', // mods' mods.yml with API keys: https://github.com/charmbracelet/mods
  '.config/shell_gpt/', // shell_gpt's .sgptrc with OPENAI_API_KEY: https://github.com/TheR1D/shell_gpt
  '.config/fabric/', // fabric's .env with the providers' keys: https://github.com/danielmiessler/fabric

  // --- Shell and REPL histories (a decision: see the top)
  '.bash_history', // bash(1) HISTFILE default
  '.zsh_history', // zsh: common HISTFILE (oh-my-zsh default)
  '.zhistory', // zsh: the other common HISTFILE
  '.histfile', // zsh: zsh-newuser-install's default
  '.sh_history', // ksh/mksh HISTFILE
  '.local/share/fish/fish_history', // fish: https://fishshell.com/docs/current/interactive.html#searchable-command-history
  '.config/fish/fish_history', // fish before 2.3 kept it here (same page's release notes)
  '.local/share/atuin/', // atuin's history database: https://docs.atuin.sh/configuration/config/
  '.viminfo', // vim registers, command line and search history: https://vimhelp.org/starting.txt.html#viminfo
  '.python_history', // Python REPL: https://docs.python.org/3/library/site.html#rlcompleter-config
  '.node_repl_history', // Node REPL: https://nodejs.org/api/repl.html#persistent-history
  '.psql_history', // psql: https://www.postgresql.org/docs/current/app-psql.html (FILES)
  '.mysql_history', // mysql: https://dev.mysql.com/doc/refman/8.0/en/mysql-logging.html
  '.sqlite_history', // sqlite3 shell
  '.rediscli_history', // redis-cli: https://redis.io/docs/latest/develop/tools/cli/
  '.irb_history', // Ruby irb
  '.lesshst', // less(1) search history
  '.ipython/profile_default/history.sqlite', // IPython history: https://ipython.readthedocs.io/en/stable/config/options/terminal.html#configtrait-HistoryAccessor.hist_file
  '.local/share/jupyter/runtime/', // Jupyter servers' connection files and tokens: https://docs.jupyter.org/en/latest/use/jupyter-directories.html
  '.local/state/lesshst', // less(1) ≥ 590 keeps its history under XDG_STATE_HOME: https://man7.org/linux/man-pages/man1/less.1.html (LESSHISTFILE)
  '.local/state/zsh/', // zsh HISTFILE in the XDG layout: https://wiki.archlinux.org/title/XDG_Base_Directory (zsh)
  '.local/state/bash/', // bash HISTFILE in the XDG layout (same page, bash)
  '.local/share/xonsh/', // xonsh history (history_json, or sqlite): https://xon.sh/envvars.html#xonsh-data-dir
  '.local/state/elvish/', // elvish command history db.bolt: https://elv.sh/ref/command.html#database-file
  '.local/share/mcfly/', // McFly history.db: https://github.com/cantino/mcfly#readme
  '.mcfly/', // McFly, its older location (same page)
  '.local/state/nvim/shada/', // Neovim ShaDa: registers, command line and search history (as .viminfo): https://neovim.io/doc/user/starting.html#shada
  '.local/share/nvim/shada/', // Neovim before 0.8 kept it here (same page)
  '.mycli-history', // mycli: https://www.mycli.net/config (history_file)
  '.litecli-history', // litecli's older history file (https://github.com/dbcli/litecli)
  '.pry_history', // pry: https://github.com/pry/pry/wiki/Customization-and-configuration#history
  '.local/share/pry/', // pry, XDG location (same page)
  '.gdb_history', // gdb (history save on): https://sourceware.org/gdb/current/onlinedocs/gdb.html/Command-History.html
  '.duckdb_history', // DuckDB CLI: https://duckdb.org/docs/stable/clients/cli/overview
  '.clickhouse-client-history', // clickhouse-client: https://clickhouse.com/docs/interfaces/cli
  '.dbshell', // the legacy mongo shell's history: https://www.mongodb.com/docs/v4.4/mongo/
  '.Rhistory', // R: https://stat.ethz.ch/R-manual/R-devel/library/utils/html/savehistory.html
  '.julia/logs/repl_history.jl', // Julia REPL (not ~/.julia's packages): https://docs.julialang.org/en/v1/stdlib/REPL/
  '.ghc/ghci_history', // GHCi: https://downloads.haskell.org/ghc/latest/docs/users_guide/ghci.html
  '.usql_history', // usql: https://github.com/xo/usql
  '.scala_history', // Scala 2 REPL (JLine)
  '.dotty_history', // Scala 3 REPL (JLine)

  // --- Shell startup files (a decision: see the top)
  '.bashrc', // bash: https://www.gnu.org/software/bash/manual/html_node/Bash-Startup-Files.html
  '.bash_profile', // bash login shells (same page)
  '.bash_login', // bash login shells (same page)
  '.profile', // bash and sh login shells (same page)
  '.bash_aliases', // sourced by Debian's and Ubuntu's default ~/.bashrc (/etc/skel/.bashrc)
  '.bashrc.d/', // every file in it sourced by Fedora's default ~/.bashrc (/etc/skel/.bashrc)
  '.zshenv', // zsh: https://zsh.sourceforge.io/Doc/Release/Files.html
  '.zprofile', // zsh login shells (same page)
  '.zshrc', // zsh interactive shells (same page)
  '.zlogin', // zsh login shells (same page)
  '.config/zsh/', // ZDOTDIR in the XDG layout (its .zshrc, .zshenv, .zsh_history): https://wiki.archlinux.org/title/XDG_Base_Directory (zsh)
  '.oh-my-zsh/custom/', // oh-my-zsh sources every *.zsh in $ZSH_CUSTOM: https://github.com/ohmyzsh/ohmyzsh/wiki/Customization
  '.config/fish/', // fish: config.fish, conf.d/, fish_variables (`set -Ux` exports): https://fishshell.com/docs/current/language.html#configuration-files
  '.config/nushell/', // nushell env.nu, config.nu and history: https://www.nushell.sh/book/configuration.html
  '.xonshrc', // xonsh run control file: https://xon.sh/xonshrc.html
  '.config/xonsh/', // xonsh rc.xsh and rc.d/ (same page)
  '.config/elvish/', // elvish rc.elv: https://elv.sh/ref/command.html#rc-file
  '.elvish/', // elvish's older location of rc.elv and its history (same page)
  '.config/powershell/', // PowerShell profiles on Linux and macOS: https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_profiles
  '.kshrc', // ksh ENV file by convention: ksh(1)
  '.mkshrc', // mksh: mksh(1) FILES
  '.cshrc', // csh/tcsh: tcsh(1) FILES
  '.tcshrc', // tcsh (same)
  '.login', // csh/tcsh login shells (same)
  '.exports', // sourced by the widely copied mathiasbynens/dotfiles .bash_profile: https://github.com/mathiasbynens/dotfiles#add-custom-commands-without-creating-a-new-fork
  '.extra', // the same dotfiles' file "for settings you don't want to commit" (same page)
  '.aliases', // the same dotfiles (same page)
  '.functions', // the same dotfiles (same page)
  '.envrc', // direnv in the home (the project's parent folders: ancestor-dotenv.ts): https://direnv.net/
  '.direnvrc', // direnv's user extensions, run for every .envrc: https://direnv.net/man/direnv.1.html
  '.config/direnv/', // the same, XDG location (direnvrc, lib/) (same page)
  '.config/environment.d/', // systemd user environment: environment.d(5)
  '.pam_environment', // pam_env user file: pam_env.conf(5)
  '.xprofile', // sourced by display managers at X login: https://wiki.archlinux.org/title/Xprofile
  '.xsessionrc', // Debian's Xsession: Xsession(5)
  '.xsession', // X session script: Xsession(5)
  '.xinitrc', // startx/xinit: xinit(1)
  '.config/plasma-workspace/env/', // KDE Plasma sources these scripts at login: https://userbase.kde.org/Session_Environment_Variables
  '.Renviron', // R's user environment file (GITHUB_PAT and API keys by usethis' advice): https://stat.ethz.ch/R-manual/R-devel/library/base/html/Startup.html

  // --- Browser profiles (a decision: see the top)
  '.mozilla/', // Firefox profiles: https://support.mozilla.org/kb/profiles-where-firefox-stores-user-data
  'snap/firefox/', // Firefox as a snap (Ubuntu)
  '.config/google-chrome/', // Chrome user data: https://chromium.googlesource.com/chromium/src/+/main/docs/user_data_dir.md
  '.config/chromium/', // Chromium (same page)
  '.config/BraveSoftware/', // Brave (Chromium user data dir)
  '.config/microsoft-edge/', // Edge on Linux (Chromium user data dir)
  '.config/vivaldi/', // Vivaldi (Chromium user data dir)
  'Library/Application Support/Google/Chrome/', // Chrome on macOS (same Chromium page)
  'Library/Application Support/Firefox/', // Firefox on macOS (Mozilla page above)
  'Library/Safari/', // Safari data on macOS
  'Library/Cookies/', // macOS cookie jars
];

/**
 * Directories hidden entry by entry, except the names listed: every file MewCode or the tool keeps
 * there (settings with hook headers and api keys, OAuth tokens, trust decisions, transcripts,
 * logs, and anything a later version adds) is hidden, while what a command may legitimately run
 * stays: skills' scripts and agent, command and instruction files the user wrote.
 */
export const HIDDEN_EXCEPT: Readonly<Record<string, readonly string[]>> = {
  // MewCode: settings.yaml (http hook headers, permission rules), config.* (provider api_key),
  // trust.json, mcp-oauth.json, hooks.yaml, sessions/, logs/, hooks.log.
  // `hooks/`: scripts the user's own hooks run (with `sandbox: true` a hook runs in here, and every
  // hook of the user's in an untrusted project). `plugins/`: the Claude Code plugins MewCode
  // installed (config/claude-plugins/paths.ts), whose hooks run their own scripts from there.
  '.mewcode': ['skills', 'agents', 'commands', 'hooks', 'plugins', 'MEWCODE.md', 'AGENTS.md'],
  // Claude Code: .credentials.json (OAuth), settings.json (env, apiKeyHelper), projects/
  // (transcripts), history.jsonl, ide/*.lock (IDE auth tokens), shell-snapshots/:
  // https://docs.anthropic.com/en/docs/claude-code/settings
  // `hooks/` is where Claude Code's docs keep the user's hook scripts (~/.claude/hooks/…), and
  // `plugins/` holds its plugins' scripts: both are run by the user's hooks, contained or not.
  '.claude': ['skills', 'agents', 'commands', 'hooks', 'plugins', 'output-styles', 'CLAUDE.md'],
  // Codex CLI: auth.json, config.toml (MCP env), sessions/, history.jsonl:
  // https://github.com/openai/codex/blob/main/docs/config.md
  '.codex': ['prompts', 'skills', 'AGENTS.md'],
  // Gemini CLI: oauth_creds.json, google_accounts.json, settings.json, .env:
  // https://github.com/google-gemini/gemini-cli/blob/main/docs/get-started/configuration.md
  '.gemini': ['commands', 'extensions', 'GEMINI.md'],
};

/**
 * Environment variables that move a credential file or directory elsewhere: where they are set,
 * the named path is hidden too. KUBECONFIG is a list.
 */
export const CREDENTIAL_ENV: readonly string[] = [
  'AWS_SHARED_CREDENTIALS_FILE', // https://docs.aws.amazon.com/cli/latest/userguide/cli-configure-envvars.html
  'AWS_CONFIG_FILE', // same page
  'GOOGLE_APPLICATION_CREDENTIALS', // https://cloud.google.com/docs/authentication/application-default-credentials
  'CLOUDSDK_CONFIG', // https://cloud.google.com/sdk/docs/configurations
  'AZURE_CONFIG_DIR', // https://learn.microsoft.com/cli/azure/azure-cli-configuration
  'OCI_CLI_CONFIG_FILE', // https://docs.oracle.com/iaas/Content/API/SDKDocs/clienvironmentvariables.htm
  'KUBECONFIG', // https://kubernetes.io/docs/concepts/configuration/organize-cluster-access-kubeconfig/
  'DOCKER_CONFIG', // https://docs.docker.com/reference/cli/docker/#environment-variables
  'REGISTRY_AUTH_FILE', // podman/buildah/skopeo: containers-auth.json(5)
  'GNUPGHOME', // https://www.gnupg.org/documentation/manuals/gnupg/Ephemeral-home-directories.html
  'PASSWORD_STORE_DIR', // pass(1)
  'SOPS_AGE_KEY_FILE', // https://github.com/getsops/sops#encrypting-using-age
  'VAULT_CONFIG_PATH', // https://developer.hashicorp.com/vault/docs/commands#vault_config_path
  'TF_CLI_CONFIG_FILE', // https://developer.hashicorp.com/terraform/cli/config/environment-variables
  'PGPASSFILE', // https://www.postgresql.org/docs/current/libpq-envars.html
  'NPM_CONFIG_USERCONFIG', // https://docs.npmjs.com/cli/using-npm/config#userconfig
  'PIP_CONFIG_FILE', // https://pip.pypa.io/en/stable/topics/configuration/#pip-config-file
  'NETRC', // curl/git/python netrc override
  'ANSIBLE_VAULT_PASSWORD_FILE', // https://docs.ansible.com/ansible/latest/reference_appendices/config.html#default-vault-password-file
  'RCLONE_CONFIG', // https://rclone.org/docs/#config-config-file
  'HF_TOKEN_PATH', // https://huggingface.co/docs/huggingface_hub/package_reference/environment_variables
  'KAGGLE_CONFIG_DIR', // https://github.com/Kaggle/kaggle-api#api-credentials
  'ZDOTDIR', // zsh's startup files and history move with it: https://zsh.sourceforge.io/Doc/Release/Files.html
  'HISTFILE', // bash and zsh history, when exported: bash(1), zshparam(1)
  'NODE_REPL_HISTORY', // https://nodejs.org/api/repl.html#environment-variable-options
  'PYTHON_HISTORY', // https://docs.python.org/3/using/cmdline.html#envvar-PYTHON_HISTORY
  'JULIA_HISTORY', // https://docs.julialang.org/en/v1/stdlib/REPL/
  'PSQL_HISTORY', // https://www.postgresql.org/docs/current/app-psql.html (ENVIRONMENT)
  'MYSQL_HISTFILE', // https://dev.mysql.com/doc/refman/8.0/en/mysql-logging.html
  'SQLITE_HISTORY', // sqlite3 shell
  'REDISCLI_HISTFILE', // https://redis.io/docs/latest/develop/tools/cli/
  'LESSHISTFILE', // less(1)
];

/** The default list as absolute paths under `homeDir` (directories without their trailing `/`). */
export function credentialPaths(homeDir: string): string[] {
  return CREDENTIAL_PATHS.map((entry) => path.join(homeDir, entry.replace(/\/$/, '')));
}

/**
 * Paths named by the credential environment variables (absolute ones only; not a device or
 * /proc: `HISTFILE=/dev/null` turns a history off), and the `.config/…`, `.local/share/…` and
 * `.local/state/…` entries moved under XDG_CONFIG_HOME / XDG_DATA_HOME / XDG_STATE_HOME when
 * those are set.
 */
export function credentialPathsFromEnv(homeDir: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const out: string[] = [];
  for (const name of CREDENTIAL_ENV) {
    const value = env[name];
    if (!value) continue;
    for (const part of name === 'KUBECONFIG' ? value.split(path.delimiter) : [value]) {
      const target = path.normalize(part);
      if (path.isAbsolute(part) && !/^\/(?:dev|proc)(?:\/|$)/.test(target)) out.push(target);
    }
  }
  for (const [prefix, base] of movedXdgHomes(homeDir, env)) {
    for (const entry of CREDENTIAL_PATHS) if (entry.startsWith(prefix)) out.push(path.join(base, entry.slice(prefix.length).replace(/\/$/, '')));
  }
  return out;
}

/** The XDG base directories set elsewhere than their default place under the home: [default prefix, where]. */
export function movedXdgHomes(homeDir: string, env: NodeJS.ProcessEnv = process.env): [string, string][] {
  const moved: [string, string | undefined][] = [
    ['.config/', env.XDG_CONFIG_HOME],
    ['.local/share/', env.XDG_DATA_HOME],
    ['.local/state/', env.XDG_STATE_HOME],
  ];
  return moved.filter((pair): pair is [string, string] => {
    const base = pair[1];
    return !!base && path.isAbsolute(base) && path.resolve(base) !== path.resolve(homeDir, pair[0]); // unset, or the default place
  });
}

/** Directories hidden whole or entry by entry already (the list's directories, HIDDEN_EXCEPT's): the name scan (secret-names.ts) does not enter them. */
export function credentialDirs(homeDir: string): string[] {
  return [...CREDENTIAL_PATHS.filter((entry) => entry.endsWith('/')).map((entry) => path.join(homeDir, entry.slice(0, -1))), ...Object.keys(HIDDEN_EXCEPT).map((dir) => path.join(homeDir, dir))];
}

/** Every entry of the HIDDEN_EXCEPT directories but the kept names, listed now (a directory that is missing gives nothing). */
export async function hiddenToolEntries(homeDir: string): Promise<string[]> {
  const out: string[] = [];
  await Promise.all(
    Object.entries(HIDDEN_EXCEPT).map(async ([dir, keep]) => {
      let names: string[];
      try {
        names = await readdir(path.join(homeDir, dir));
      } catch {
        return;
      }
      for (const name of names) if (!keep.includes(name)) out.push(path.join(homeDir, dir, name));
    }),
  );
  return out;
}
