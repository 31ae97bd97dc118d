import { describe, expect, it } from 'vitest'
import { maskSecrets, maskStrings, maskTokenShapes, secretForms } from '../../src/model/secrets.js'
import { maskReport } from '../../src/report/secrets.js'
import { renderIssueComment } from '../../src/report/issue-comment.js'
import * as fx from './fixtures.js'

describe('secrets', () => {
  it('masks every occurrence, inside longer strings too, the longest secret first', () => {
    expect(maskSecrets('a=abc123; b=xabc123456y', ['abc123', 'abc123456'])).toBe('a=***; b=x***y')
    expect(maskSecrets('nothing', ['', 'zzz'])).toBe('nothing')
  })

  it.each([
    ['a classic token', 'token ghp_abcdefghijklmnopqrstuvwxyz0123456789 used', 'token *** used'],
    ['a fine-grained token', 'github_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOP', '***'],
    ['an app token', 'x-access-token:ghs_Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp9Oo@github.com', 'x-access-token:***@github.com'],
    ['an AWS key id', 'aws_access_key_id = AKIAZ7Q2CONVERGE0TST', 'aws_access_key_id = ***'],
    ['a bearer header', 'Authorization: Bearer eyJhbGciOiJub25lIn0.eyJjb252ZXJnZSI6MX0.c2ln', 'Authorization: Bearer ***'],
    ['a token header', 'Authorization: token 0123456789abcdef0123', 'Authorization: token ***'],
    ['an AWS session key id', 'ASIAZ7Q2CONVERGE0TST', '***'],
    ['an npm token', '//registry.npmjs.org/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789', '//registry.npmjs.org/:_authToken=***'],
    ['a Slack token', 'SLACK_TOKEN=xoxb-1234567890-abcdefghij', 'SLACK_TOKEN=***'],
    ['a Basic header in other case', 'authorization: basic dXNlcjpwYXNzd29yZDEyMzQ1Njc4', 'authorization: basic ***'],
  ])('masks %s in command output', (_, output, masked) => {
    expect(maskTokenShapes(output)).toBe(masked)
  })

  it('leaves prose about tokens alone', () => {
    const prose = 'Bearer tokens expire; the token refresh test failed'
    expect(maskTokenShapes(prose)).toBe(prose)
  })

  it('masks the whole report before it is rendered, and drops the list of secrets', () => {
    const masked = maskReport(fx.withSecrets())
    expect(masked.secrets).toBeUndefined()
    expect(JSON.stringify(masked)).not.toContain(fx.DEPLOY_KEY)
    expect(JSON.stringify(masked)).not.toContain(fx.PRINTED_TOKEN)
  })

  it('no secret reaches the comment, from the headline, the output tails or the error', () => {
    const comment = renderIssueComment(fx.withSecrets())
    expect(comment).not.toContain(fx.DEPLOY_KEY)
    expect(comment).not.toContain(fx.PRINTED_TOKEN)
    expect(comment).toContain('T3 failed while publishing with key ***.')
    expect(comment).toContain('> curl -H "Authorization: Bearer ***" https://registry.example.test/v2/')
  })
})

describe('every form of a secret is masked in what is posted and recorded', () => {
  const key = 'sk-ant-api03-Secret/Value+0123'
  it('the value, its reverse, its URL encoding and its base64, in a comment text and in plan data alike', () => {
    const forms = [key, [...key].reverse().join(''), encodeURIComponent(key), Buffer.from(key).toString('base64')]
    expect(maskSecrets(forms.join(' | '), [key])).toBe('*** | *** | *** | ***')
    const plan = { tasks: [{ title: `echo ${forms[1]}`, commands: [`curl -d ${forms[2]}`] }] }
    expect(JSON.stringify(maskStrings(plan, [key]))).not.toMatch(/Secret|terceS|Value|eulaV/)
  })

  it('lists the forms it looks for, short secrets without base64', () => {
    expect(secretForms('abc/def')).toEqual(['abc/def', 'fed/cba', 'abc%2Fdef'])
    expect(secretForms('')).toEqual([])
  })
})
