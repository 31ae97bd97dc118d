import { describeRealCli } from './real-cli-suite.js'

describeRealCli('gemini')
