import { describeRealCli } from './real-cli-suite.js'

describeRealCli('claude-code')
