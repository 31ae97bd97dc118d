/** Other CI systems' configuration (issue 35's list and docs/security.md's), each read from the repository's root. */
export const CI_FILES = [
  '.cirrus.yml', 'appveyor.yml', '.appveyor.yml', '.woodpecker.yml', '.woodpecker/build.yml', '.semaphore/semaphore.yml',
  'cloudbuild.yaml', 'cloudbuild.yml', 'buildspec.yml', '.gitea/workflows/x.yml', '.forgejo/workflows/x.yml', '.gitlab/ci/deploy.yml',
  'codefresh.yml', 'bitrise.yml', 'codemagic.yaml', '.teamcity/settings.kts', '.tekton/pipeline.yaml', '.builds/x.yml', '.build.yml',
  'netlify.toml', '.gitpod.yml', '.devcontainer/devcontainer.json', '.pre-commit-config.yaml', '.drone.star', 'azure-pipelines.yaml',
]
